//! Czech (vykání). Language names are nouns in the nominative (čeština), so sentences name a
//! language only where the nominative fits ("jazyk: {target}", "je plynulá {target}").

use super::{Msg, Text};

pub(super) const NAMES: [&str; 11] =
    ["angličtina", "němčina", "čeština", "čínština", "japonština", "arabština", "hindština", "francouzština", "španělština", "ruština", "ukrajinština"];

pub(super) fn msg(m: Msg) -> &'static str {
    match m {
        Msg::Loading => "Načítá se…",
        Msg::CannotOpen => "Tento HIT nelze otevřít",
        Msg::KeptAnswer => "Vaše odpověď na tuto položku zůstává na této stránce: odešlete ji dalším stisknutím tlačítka.",
        Msg::KeptRanks => "Vaše pořadí na této obrazovce zůstává na této stránce: odešlete je dalším stisknutím tlačítka.",
        Msg::KeptSpans => "Vámi označené chyby a hodnocení zůstávají na této stránce: odešlete je dalším stisknutím tlačítka.",
        Msg::SliderNotSet => "nenastaveno; mezi „{low}“ a „{high}“",
        Msg::SliderAt => "„{end}“",
        Msg::SliderCloseTo => "blízko „{end}“",
        Msg::SliderLeaning => "spíše k „{end}“",
        Msg::SliderMiddle => "uprostřed",
        Msg::NotSetYet => "Zatím nenastaveno",
        Msg::KeysTitle => "Klávesy:",
        Msg::KeysChooseBox => "vybrat políčko (u otázky, na které je fokus, jinak u první nezodpovězené)",
        Msg::KeysNextQuestion => "další otázka",
        Msg::KeysGoOn => "pokračovat",
        Msg::KeysToTranslation => "na překlad",
        Msg::KeysItsRank => "jeho pořadí (1 je nejlepší)",
        Msg::KeysMoveLittle => "posunout o kousek",
        Msg::KeysMoveMore => "posunout víc",
        Msg::KeysEnds => "na konce",
        Msg::Progress => "{n} z {total}",
        Msg::ProgressRange => "Překlady {from} až {to} z {total}",
        Msg::Instructions => "Pokyny",
        Msg::HitSize => "Počet položek v tomto HITu: {n}.",
        Msg::PracticeBefore => "Před HITem: cvičné položky ({n}) se zpětnou vazbou po každé odpovědi. Nejsou součástí HITu a nezapočítávají se.",
        Msg::PracticeRequired => "Alespoň {required} z {total} odpovědí musí být tam, kde by byla odpověď pozorného čtenáře; jinak cvičení začne znovu.",
        Msg::PracticeResume => "Jste u cvičné položky {n} z {total}.",
        Msg::StartPractice => "Zahájit cvičení",
        Msg::Start => "Začít",
        Msg::PracticeLabel => "Cvičná položka {n} z {total} · není součástí HITu",
        Msg::PracticeFeedbackLabel => "Cvičná položka {n} z {total} · zpětná vazba",
        Msg::StartHit => "Zahájit HIT",
        Msg::PracticeAgain => "Zahájit cvičení znovu",
        Msg::NextPractice => "Další cvičná položka",
        Msg::WhySlider => "Posuňte posuvník a zadejte své hodnocení.",
        Msg::FirstSentence => "První věta",
        Msg::SecondSentence => "Druhá věta",
        Msg::TranslationsFrom => "Obě věty jsou překlady. Výchozí jazyk: {source}.",
        Msg::Skip => "Přeskočit tuto položku",
        Msg::WhyBoxesBoth => "Pro pokračování vyberte políčko u obou otázek.",
        Msg::WhyBoxesFirst => "Pro pokračování vyberte políčko u první otázky.",
        Msg::WhyBoxesSecond => "Pro pokračování vyberte políčko u druhé otázky.",
        Msg::WhySlidersBoth => "Posuňte oba posuvníky a zadejte své odpovědi.",
        Msg::WhySliderFirst => "Posuňte první posuvník a zadejte svou odpověď.",
        Msg::WhySliderSecond => "Posuňte druhý posuvník a zadejte svou odpověď.",
        Msg::BoxEnd => "políčko {n} z 5: {end}",
        Msg::BoxN => "políčko {n} z 5",
        Msg::AllRanked => "Všechny překlady mají pořadí.",
        Msg::RanksLeftOne => "Pro pokračování přidělte pořadí ještě jednomu překladu (1 je nejlepší; stejně dobré překlady mohou mít stejné pořadí).",
        Msg::RanksLeft => "Překlady, kterým zbývá přidělit pořadí: {k}. 1 je nejlepší; stejně dobré překlady mohou mít stejné pořadí.",
        Msg::SentenceNofM => "Věta {n} z {total}",
        Msg::Sentence => "Věta",
        Msg::TranslationN => "Překlad {n}",
        Msg::RankBest => "pořadí 1, nejlepší",
        Msg::RankWorst => "pořadí {r}, nejhorší",
        Msg::RankN => "pořadí {r}",
        Msg::PairTranslationA => "Překlad A",
        Msg::PairTranslationB => "Překlad B",
        Msg::PairPickA => "A je lepší",
        Msg::PairPickB => "B je lepší",
        Msg::PairPickSame => "Zhruba stejné",
        Msg::PairChoose => "Pro pokračování vyberte A, B nebo zhruba stejné.",
        Msg::PostEditField => "Váš opravený překlad",
        Msg::PostEditUnchanged => "Beze změny",
        Msg::PostEditKeys => "Ctrl+Enter pokračuje.",
        Msg::PostEditEmpty => "Napište překlad, nebo stiskněte „Beze změny“.",
        Msg::ContrastiveSwitch => "Překlady k porovnání",
        Msg::Complete => "Děkujeme: tento HIT je dokončen",
        Msg::Saved => "Vaše odpovědi byly uloženy.",
        Msg::HeldMessage => "Organizátor před vydáním kódů dokončení kontroluje hotové HITy. Po dokončení kontroly se váš kód zobrazí na této stránce. Nyní už nemusíte nic dělat.",
        Msg::YourCode => "Váš kód dokončení:",
        Msg::ReturnToPlatform => "Zpět na platformu studie",
        Msg::KeepCode => "Uschovejte si tento kód: organizátor si ho může vyžádat.",
        Msg::SevMinor => "drobná chyba",
        Msg::SevMajor => "závažná chyba",
        Msg::SevCritical => "kritická chyba",
        Msg::SevNeutral => "neutrální (nejde o chybu)",
        Msg::MarkMinor => "Drobná chyba",
        Msg::MarkMajor => "Závažná chyba",
        Msg::MarkCritical => "Kritická chyba",
        Msg::MarkNeutral => "Neutrální (nejde o chybu)",
        Msg::EsaChooseCategory => "Nejprve zvolte kategorii chyby.",
        Msg::EsaMaxErrors => "Nejvýše {n} chyb na segment: ponechte ty nejzávažnější.",
        Msg::EsaMarked => "Označeno „{text}“: {severity}.",
        Msg::EsaNowMajor => "„{text}“ je nyní závažná chyba.",
        Msg::EsaRemoved => "Chyba „{text}“ odstraněna.",
        Msg::EsaMissingLabel => "[MISSING]: označte, pokud něco z výchozího textu chybí",
        Msg::EsaWordMarked => "{word}, označeno: {severity}",
        Msg::EsaHelp => "Vyberte slova chyby (tažením, nebo klepnutím na první a poslední slovo) a pak zvolte, jak je závažná. Kliknutím na označenou chybu ji změníte.",
        Msg::EsaPrefilled => "Některé chyby jsou již označeny jako návrhy: každou zkontrolujte (ponechte ji, změňte její závažnost, nebo ji odstraňte) a označte chyby, které návrhy vynechaly.",
        Msg::EsaToolbar => "Označit vybraná slova",
        Msg::EsaSelected => "Vybráno: „{text}“",
        Msg::EsaNothingSelected => "Nejsou vybrána žádná slova",
        Msg::EsaCategory => "Kategorie",
        Msg::EsaChoose => "— zvolte —",
        Msg::Cancel => "Zrušit",
        Msg::EsaNoErrors => "Nejsou označeny žádné chyby",
        Msg::EsaOneError => "Označena jedna chyba",
        Msg::EsaErrorsMarked => "Označené chyby: {n}",
        Msg::MakeMajor => "Změnit na závažnou",
        Msg::MakeMinor => "Změnit na drobnou",
        Msg::Remove => "Odstranit",
        Msg::EsaScoreSegment => "Hodnocení překladu tohoto segmentu",
        Msg::EsaScoreDocument => "Hodnocení překladu celého dokumentu",
        Msg::EsaAnchorSome => "Část významu zachována",
        Msg::EsaAnchorMost => "Většina významu zachována, málo chyb",
        Msg::EsaConfirm => "Dali jste nízké hodnocení, ale neoznačili jste žádnou chybu. Označte chyby, nebo stiskněte tlačítko znovu a hodnocení odešlete tak, jak je.",
        Msg::WhyEsaScore => "Posuňte jezdec a ohodnoťte překlad.",
        Msg::WhyEsaDocument => "Ohodnoťte také celý dokument.",
        Msg::EsaSegmentOf => "Segment {k} z {n} tohoto dokumentu",
        Msg::EsaSoFar => "Dosavadní část dokumentu",
        Msg::EsaRest => "Zbytek dokumentu",
        Msg::KeysToTheTranslation => "na překlad",
        Msg::KeysWords => "slova",
        Msg::KeysSelect => "vybrat",
        Msg::KeysMinor => "drobná",
        Msg::KeysMajor => "závažná",
        Msg::KeysChangeError => "na chybě: změnit ji",
        Msg::KeysRemove => "odstranit",
        Msg::KeysElsewhere => "jinde: pokračovat",
        Msg::Undo => "Zpět",
        Msg::EsaUndone => "Vráceno: chyby jsou jako před poslední změnou.",
        Msg::KeysUndo => "zpět",
        Msg::HitScreens => "Tento HIT má {screens} obrazovek; každá věta na obrazovce má {outputs} překladů, které seřadíte od 1 (nejlepší) do {outputs}.",
    }
}

pub(super) fn text(t: Text) -> &'static str {
    match t {
        Text::StatementAdequacy => "Přečtěte si níže uvedený text a ohodnoťte, nakolik souhlasíte s tvrzením: černý text přiměřeně vyjadřuje význam šedého textu.",
        Text::StatementFluency => "Přečtěte si níže uvedený text a ohodnoťte, nakolik souhlasíte s tvrzením: text je plynulá {target}.",
        Text::StatementSource => "Přečtěte si níže uvedený text a ohodnoťte, nakolik souhlasíte s tvrzením: černý text přiměřeně vyjadřuje význam výchozího textu.",
        Text::StatementRanking => "Seřaďte překlady od nejlepšího po nejhorší (shodné pořadí je povoleno).",
        Text::AnchorLow => "rozhodně nesouhlasím",
        Text::AnchorHigh => "rozhodně souhlasím",
        Text::WojQuestion1 => "Jak obtížné by bylo pochopit význam druhé věty, kdybyste viděli jen tu první?",
        Text::WojQuestion2 => "Nakolik samotné pořadí slov zatemňuje význam první věty?",
        Text::WojLow1 => "Velmi obtížné",
        Text::WojHigh1 => "Velmi snadné",
        Text::WojLow2 => "Nesmírně",
        Text::WojHigh2 => "Vůbec ne",
        Text::Next => "Další",
        Text::LabelSource => "Výchozí text",
        Text::LabelReference => "Referenční překlad",
        Text::LabelCandidate => "Hodnocený překlad",
        Text::InstructionsAdequacy => "Budete číst dvojice textů, vždy jednu dvojici. Šedý text (referenční překlad) je lidský překlad. Černý text (hodnocený překlad) je jiný překlad téže věty.

Posuvníkem ukažte, nakolik souhlasíte, že černý text přiměřeně vyjadřuje význam šedého textu. Než odpovíte, přečtěte si oba texty, a využívejte celou délku posuvníku:
- směrem k „rozhodně souhlasím“, když černý text říká vše, co říká šedý text, třeba i jinými slovy;
- ke středu, když část významu chybí nebo je změněna;
- směrem k „rozhodně nesouhlasím“, když černý text říká něco jiného nebo jen velmi málo z šedého textu.

Příklady se šedým textem „Schůzka byla přesunuta na pátek.“:
- „Schůzka byla odložena na pátek.“ říká totéž jinými slovy: daleko k „rozhodně souhlasím“.
- „Schůzka byla přesunuta.“ vynechává den: zřetelně níž.
- „Pátek je schůzka.“ ztrácí význam: daleko k „rozhodně nesouhlasím“.

Posuvník je na začátku prázdný: klikněte nebo klepněte na něj, případně použijte šipky, a pak pokračujte stisknutím tlačítka. K dřívějšímu textu se nelze vrátit.",
        Text::InstructionsFluency => "Budete číst vždy jeden text: překlad (cílový jazyk: {target}).

Posuvníkem ukažte, nakolik souhlasíte, že text je plynulá {target}: přirozený a gramaticky správný text, jaký by mohl napsat rodilý mluvčí. Hodnoťte pouze jazyk; nemusíte vědět, co stálo v originále. Využívejte celou délku posuvníku:
- směrem k „rozhodně souhlasím“, když se text čte jako dobrá {target};
- ke středu, když je srozumitelný, ale má neobratné nebo chybné obraty;
- směrem k „rozhodně nesouhlasím“, když se jako {target} téměř nedá číst.

Příklady v češtině:
- „V Paříži žije už deset let.“ je plynulé: daleko k „rozhodně souhlasím“.
- „Ona žije od deset let v Paříž.“ je srozumitelné, ale ne přirozené: níž.
- „Paříž let deset žije v už.“ není plynulé: daleko k „rozhodně nesouhlasím“.

Posuvník je na začátku prázdný: klikněte nebo klepněte na něj, případně použijte šipky, a pak pokračujte stisknutím tlačítka. K dřívějšímu textu se nelze vrátit.",
        Text::InstructionsSource => "Budete číst dvojice textů, vždy jednu dvojici. První je výchozí text (jazyk: {source}); černý text (hodnocený překlad) je jeho překlad (jazyk: {target}).

Posuvníkem ukažte, nakolik souhlasíte, že černý text přiměřeně vyjadřuje význam výchozího textu. Než odpovíte, přečtěte si oba texty, a využívejte celou délku posuvníku:
- směrem k „rozhodně souhlasím“, když překlad říká vše, co říká výchozí text;
- ke středu, když část významu chybí nebo je změněna;
- směrem k „rozhodně nesouhlasím“, když říká něco jiného nebo jen velmi málo z výchozího textu.

Příklady pro výchozí text s významem „Schůzka byla přesunuta na pátek.“:
- překlad, který říká totéž, třeba i jinými slovy: daleko k „rozhodně souhlasím“;
- překlad, který vynechává den: zřetelně níž;
- překlad, který ztrácí význam: daleko k „rozhodně nesouhlasím“.

Posuvník je na začátku prázdný: klikněte nebo klepněte na něj, případně použijte šipky, a pak pokračujte stisknutím tlačítka. K dřívějšímu textu se nelze vrátit.",
        Text::InstructionsWordOrder => "Každá položka ukazuje dvě věty. První věta je strojový překlad, druhá je lidský překlad téže věty (výchozí jazyk: {source}). Přečtěte si obě a pak odpovězte na obě otázky:
- Otázka 1: Jak obtížné by bylo pochopit význam druhé věty, kdybyste viděli jen tu první?
- Otázka 2: Nakolik samotné pořadí slov zatemňuje význam první věty? Hodnoťte jen pořadí, ne volbu slov.

Každá otázka má pět políček, popsaných jen na koncích; u každé otázky vyberte jedno políčko.

Příklady s druhou větou „Včera jsem odeslal dopis.“:
- „Včera jsem odeslal dopis.“: význam je velmi snadné pochopit a pořadí ho vůbec nezatemňuje.
- „Včera dopis odeslal jsem.“: snadno pochopitelné; pořadí význam trochu zatemňuje.
- „Dopis včera jsem odeslal já ten.“: pořadí význam nesmírně zatemňuje.

K dřívější položce se nelze vrátit.",
        Text::InstructionsRanking => "Uvidíte výchozí větu a za ní několik překladů. Seřaďte překlady od nejlepšího po nejhorší:
- nejlepšímu překladu dejte pořadí 1;
- stejně dobrým překladům dejte stejné pořadí (shodné pořadí je povoleno);
- než budete moci pokračovat, musí mít pořadí každý překlad.

Příklad: když dva překlady říkají, co říká výchozí věta, a třetí vynechává slovo, dejte prvním dvěma pořadí 1 a třetímu pořadí 3.

Na klávesnici: tabulátorem přejděte na překlad a stiskněte jeho pořadí (1 pro nejlepší); Enter pokračuje. K dřívější obrazovce se nelze vrátit.",
        Text::StatementEsa => "Označte každou chybu v překladu (vyberte ji a zvolte drobnou, nebo závažnou chybu) a potom ohodnoťte, kolik z významu překlad zachovává.",
        Text::StatementMqm => "Označte každou chybu v překladu: vyberte ji, zvolte její kategorii a potom, jak je závažná.",
        Text::EsaAnchorLow => "Význam nezachován",
        Text::EsaAnchorHigh => "Dokonalý překlad",
        Text::InstructionsEsa => "Budete číst dokumenty s jejich překladem, vždy jeden segment (výchozí jazyk: {source}, cílový jazyk: {target}); předchozí segmenty jsou nad ním zobrazeny jako kontext.

Nejprve označte chyby v překladu segmentu v rámečku:
- vyberte chybná slova (přetáhněte přes ně, nebo klepněte na první a potom na poslední slovo) a zvolte „Drobná chyba“, nebo „Závažná chyba“;
- drobná chyba je chybné slovo nebo spojení, které nemění význam textu, nebo neobratná, ale srozumitelná formulace;
- závažná chyba mění nebo ztrácí význam, nebo ztěžuje porozumění textu;
- pokud v překladu něco z výchozího textu chybí, označte token [MISSING] na konci;
- klepnutím na označenou chybu ji změníte: z drobné se stane závažná a závažná se odstraní.

Potom nastavte posuvník pro celý segment:
- 0: význam nezachován; 33: část významu zachována; 66: většina významu zachována, málo chyb; 100: dokonalý překlad.

Příklady pro výchozí text s významem „Schůzka byla přesunuta na pátek.“:
- „Schůzka byla přesunuta na pátek.“: žádná chyba, hodnocení blízko 100;
- „Schůzka byla přesunut na pátek.“: drobná chyba u slova „přesunut“, hodnocení blízko 80;
- „Schůzka byla zrušena.“: závažná chyba u slova „zrušena“ a chybějící pátek ([MISSING]), hodnocení blízko 20.

S klávesnicí: tabulátorem přejděte do překladu, šipkami se pohybujte mezi slovy, se stisknutým Shiftem šipkami rozšiřte výběr, stiskněte 1 pro drobnou nebo 2 pro závažnou chybu a Enterem na označené chybě ji změníte. K dřívějšímu segmentu se nelze vrátit.",
        Text::InstructionsMqm => "Budete číst dokumenty s jejich překladem, vždy jeden segment (výchozí jazyk: {source}, cílový jazyk: {target}); předchozí segmenty jsou nad ním zobrazeny jako kontext.

Označte každou chybu v překladu segmentu v rámečku (MQM):
- vyberte chybná slova (přetáhněte přes ně, nebo klepněte na první a potom na poslední slovo), zvolte ze seznamu kategorii chyby a potom její závažnost;
- Drobná chyba: skutečná chyba, která nemění význam textu ani čtenáře nezastaví (chybná předložka, chybějící čárka);
- Závažná chyba: chyba, která mění nebo ztrácí význam, nebo by čtenáře zmátla či zastavila;
- Neutrální: něco, co stojí za poznámku, ale není to chyba;
- pokud v překladu něco z výchozího textu chybí, označte token [MISSING] na konci (kategorie Přesnost/Vynechání);
- překlad, který vůbec není překladem (jiný jazyk, nesmyslné znaky), je jediná chyba „Nejde o překlad“ označená přes celý text;
- nejvýše pět chyb na segment: ponechte ty nejzávažnější.

Segment bez chyb nepotřebuje žádné označení: pokračujte stisknutím tlačítka.

S klávesnicí: tabulátorem přejděte do překladu, šipkami se pohybujte mezi slovy, se stisknutým Shiftem šipkami rozšiřte výběr, potom zvolte kategorii a stiskněte „Drobná chyba“, nebo „Závažná chyba“. K dřívějšímu segmentu se nelze vrátit.",
        Text::ErrNotSignedIn => "Pro práci na tomto HITu se prosím přihlaste.",
        Text::ErrNotYours => "Tento HIT je přidělen někomu jinému.",
        Text::ErrNotFound => "Na této adrese žádný HIT není.",
        Text::ErrBlocked => "Tento pracovník se již této kampaně nemůže účastnit.",
        Text::ErrExpired => "Platnost tohoto HITu vypršela: čas uplynul a HIT dostal jiný pracovník.",
        Text::ErrReturned => "Tento HIT byl vrácen a už vám není přidělen.",
        Text::ErrFinished => "Tento HIT je dokončen; další odpovědi se nepřijímají.",
        Text::ErrNotStarted => "Nejprve si prosím přečtěte pokyny a stiskněte „Začít“.",
        Text::ErrPracticeFirst => "Nejprve prosím dokončete cvičné položky: HIT začíná po nich.",
        Text::ErrReservationGone => "Tento HIT pro vás byl rezervován jen na několik minut a dostal ho jiný pracovník. Otevřete svůj odkaz znovu a získáte jiný HIT.",
        Text::ErrPracticeOver => "Cvičení skončilo: tento HIT už začal.",
        Text::ErrPracticeDone => "Cvičení je hotové: HIT zahájíte stisknutím „Začít“.",
        Text::ErrPracticeNotCurrent => "Toto není aktuální cvičná položka (aktuální je cvičná položka {n}); zobrazíte ji znovunačtením stránky.",
        Text::ErrPracticeAnswered => "Na tuto cvičnou položku už bylo odpovězeno; aktuální zobrazíte znovunačtením stránky.",
        Text::ErrAnsweredAlready => "Na položku {n} už bylo odpovězeno; odpověď nelze změnit.",
        Text::ErrNotCurrent => "Položka {n} není aktuální položka: jako další odpovězte na položku {next}.",
        Text::ErrScreenAnswered => "Na položky {from} až {to} už bylo odpovězeno; odpovědi nelze změnit.",
        Text::ErrNotOnScreen => "Položka {n} není na aktuální obrazovce: jako další odpovězte na položku {next}.",
        Text::ErrSameTime => "Současně přišla jiná odpověď pro tento HIT; načtěte prosím stránku znovu.",
        Text::FeedbackHigh => "Pozorný čtenář by toto hodnotil vysoko (směrem k „{high}“), protože {reason}.",
        Text::FeedbackLow => "Pozorný čtenář by toto hodnotil nízko (směrem k „{low}“), protože {reason}.",
        Text::FeedbackWojHigh => "Pozorný čtenář by odpověděl směrem k „{high1}“ a „{high2}“, protože {reason}.",
        Text::FeedbackWojLow => "Pozorný čtenář by na druhou otázku odpověděl směrem k „{low2}“, protože {reason}.",
        Text::FeedbackSpansHigh => "Pozorný čtenář by zde neoznačil žádnou závažnou chybu a hodnotil by vysoko (směrem k „{high}“), protože {reason}.",
        Text::FeedbackSpansLow => "Pozorný čtenář by zde označil alespoň jednu chybu a hodnotil by nízko (směrem k „{low}“), protože {reason}.",
        Text::FeedbackMqmHigh => "Pozorný čtenář by zde neoznačil žádnou závažnou ani kritickou chybu, protože {reason}.",
        Text::FeedbackMqmLow => "Pozorný čtenář by zde označil alespoň jednu závažnou chybu, protože {reason}.",
        Text::YourSpans => "Vámi označené chyby: {n}, z toho závažné nebo kritické: {major}.",
        Text::YourRating => "Vaše hodnocení: {words}.",
        Text::YourAnswers => "Vaše odpovědi: {first} a {second}.",
        Text::FeedbackPair => "Pozorný čtenář by zvolil „{better}“, protože u „{worse}“ platí: {reason}.",
        Text::FeedbackRanks => "Pozorný čtenář by zařadil „{better}“ nad „{worse}“, protože u „{worse}“ platí: {reason}.",
        Text::YourPick => "Vaše volba: {choice}.",
        Text::YourRanks => "Vaše pořadí: {ranks}.",
        Text::VerdictIn => "Vaše odpověď je tam, kde by byla odpověď pozorného čtenáře.",
        Text::VerdictOut => "Vaše odpověď není tam, kde by byla odpověď pozorného čtenáře.",
        Text::RoundPassed => "Cvičení hotovo: {matched} z {total} odpovědí bylo tam, kde by byla odpověď pozorného čtenáře. Nyní můžete zahájit HIT.",
        Text::RoundFailed => "{matched} z {total} odpovědí bylo tam, kde by byla odpověď pozorného čtenáře; je jich potřeba alespoň {required}. Přečtěte si znovu zpětnou vazbu: cvičení začíná znovu.",
        Text::ReasonSame => "první věta je stejná jako druhá: její význam je velmi snadné pochopit a pořadí slov ho vůbec nezatemňuje",
        Text::ReasonFluent => "jde o lidský překlad od člověka, který jazyk plynně ovládá: čte se přirozeně",
        Text::ReasonSourceHuman => "jde o lidský překlad výchozího textu: říká vše, co říká výchozí text",
        Text::ReasonHuman => "jde o lidský překlad téže věty: říká vše, co říká šedý text",
        Text::ReasonMissing => "chybí část významu (vynecháno: {words}), takže neříká vše, co říká {whose}",
        Text::ReasonReplaced => "slova byla nahrazena jinými, která mění význam ({words}), takže neříká to, co říká {whose}",
        Text::ReasonRepeated => "slova se opakují tam, kam nepatří ({words}), takže se text nečte přirozeně",
        Text::ReasonOrder => "slova jsou ve špatném pořadí ({words} nejsou na svém místě), což zatemňuje význam",
        Text::ReasonChanged => "byl úmyslně zhoršen",
        Text::TheSource => "výchozí text",
        Text::TheGrayText => "šedý text",
        Text::CrowdNoWorkTitle => "Momentálně žádná práce",
        Text::CrowdNoWork => "V této kampani pro vás momentálně není žádný HIT. Děkujeme za váš zájem.",
        Text::CrowdTooManyTitle => "Příliš mnoho nových pracovníků",
        Text::CrowdTooMany => "Z vaší síťové adresy za poslední hodinu začalo mnoho nových pracovníků. Zkuste to prosím později.",
        Text::CrowdHoldsFullTitle => "Příliš mnoho nezahájených úkolů z vaší adresy",
        Text::CrowdHoldsFull => "Z vaší síťové adresy je již rezervováno několik úkolů této studie, aniž by byla dána jediná odpověď. Začněte jeden z nich, nebo to zkuste znovu za několik minut, až budou nevyužité rezervace uvolněny.",
        Text::CrowdBusyTitle => "Přetíženo",
        Text::CrowdBusy => "Mnoho lidí začíná najednou; načtěte prosím tuto stránku za několik sekund znovu.",
        Text::CrowdErrorTitle => "Něco se pokazilo",
        Text::CrowdError => "Zkuste to prosím znovu za minutu.",
        Text::LinkInvalidTitle => "Neplatný odkaz",
        Text::LinkInvalid => "Tento odkaz na kampaň není platný. Použijte prosím odkaz přesně tak, jak jste ho obdrželi.",
        Text::CampaignGoneTitle => "Kampaň neexistuje",
        Text::CampaignGone => "Tato kampaň již neexistuje.",
        Text::NoWorkerIdTitle => "Kdo jste?",
        Text::NoWorkerId => "Tento odkaz potřebuje ID pracovníka z crowdsourcingové platformy (workerId pro Mechanical Turk, PROLIFIC_PID pro Prolific nebo worker).",
        Text::PreviewTitle => "Náhled",
        Text::PreviewSample => "Ukázková položka (jen ke čtení)",
        Text::PreviewAccept => "Pro zahájení přijměte HIT. Uvidíte vždy jednu položku.",
        Text::WorkTitle => "Hodnocení překladů",
        Text::HomeWelcome => "Vítejte, {name}",
        Text::HomeRole => "Anotátor",
        Text::HomeYourWork => "Vaše práce",
        Text::HomeNoWork => "Momentálně na vás nečeká žádný HIT. Jakmile vás organizátor přiřadí ke kampani, objeví se zde její HITy; každý trvá asi půl hodiny.",
        Text::HomeMinutesPerHit => "asi {minutes} minut na HIT",
        Text::HomeDone => "hotovo: {n}",
        Text::HomeContinue => "Pokračovat",
        Text::HomeStart => "Začít HIT",
        Text::HomeYourHits => "Vaše HITy",
        Text::HomeLoadingHits => "Načítají se vaše HITy…",
        Text::HomeFinished => "dokončeno",
        Text::HomeNotStarted => "{total} položek, nezačato",
        Text::HomeItemsDone => "hotovo {answered} z {total} položek",
        Text::HomeNoHits => "Nemáte rozpracovaný žádný HIT. Začněte některý z kampaní výše.",
        Text::HomeTaskAdequacy => "adekvátnost",
        Text::HomeTaskFluency => "plynulost",
        Text::HomeTaskSource => "adekvátnost (zdroj)",
        Text::HomeTaskWordOrder => "slovosled",
        Text::HomeTaskRanking => "pořadí",
        Text::HomeTaskEsa => "chybné úseky",
        Text::HomeTaskMqm => "chyby s kategoriemi",
        Text::HomeTaskPairwise => "porovnání dvojic",
        Text::StatementPairwise => "Který překlad je lepší?",
        Text::InstructionsPairwise => "Uvidíte větu v jazyce {source} a vedle sebe dva její překlady do jazyka {target} (na telefonu pod sebou). Vyberte lepší překlad:
- A: první překlad (vlevo nebo nahoře) je lepší;
- B: druhý překlad (vpravo nebo dole) je lepší;
- Zhruba stejné: žádný není zřetelně lepší.

Lepší překlad říká úplně a správně to, co výchozí text, přirozeným jazykem {target}.

Klávesnicí: 1 pro A, 2 pro B, 3 pro zhruba stejné (nebo šipky pro přechod mezi volbami); Enter pokračuje. K dřívější dvojici se nelze vrátit.",
        Text::HomeTaskPostEdit => "posteditace",
        Text::StatementPostEdit => "Opravte překlad tak, aby říkal totéž co zdroj, přirozenou {target}.",
        Text::InstructionsPostEdit => "Uvidíte větu v jazyce {source} a její strojový překlad do jazyka {target} v textovém poli. Opravte překlad:
- měňte jen to, co je špatně: význam, chybějící nebo přidaná slova, gramatiku, pravopis, interpunkci;
- ponechte, co je správně, i když byste to řekli jinak;
- pokud překlad nepotřebuje změnu, stiskněte „Beze změny“.

Je-li pole prázdné, přeložte větu sami.

S klávesnicí: Tab do pole; Ctrl+Enter (nebo Cmd+Enter) pokračuje. K dřívější větě se vrátit nelze.",
        Text::HomeTaskContrastive => "kontrastivní chybové úseky",
        Text::StatementContrastive => "Označte každou chybu v každém překladu (vyberte ji a zvolte drobná nebo závažná) a pak ohodnoťte, kolik významu každý zachovává.",
        Text::InstructionsContrastive => "Uvidíte větu v jazyce {source} a dva až čtyři její překlady do jazyka {target} vedle sebe (na telefonu jeden po druhém: tlačítka „Překlad 1“, „Překlad 2“, … nad nimi mezi nimi přepínají; věta zůstává nahoře).

U každého překladu:
- označte jeho chyby: vyberte chybná slova (přetáhněte přes ně, nebo klepněte na první a pak na poslední slovo) a zvolte drobná nebo závažná; chybí-li něco z věty, označte [MISSING];
- pak mu dejte hodnocení od 0 (žádný význam nezachován) do 100 (dokonalý překlad).

Porovnávejte překlady mezi sebou: lepší překlad dostane vyšší hodnocení. Nízké hodnocení bez označené chyby musíte potvrdit.

Z klávesnice: Tab přechází mezi překlady, jejich slovy a posuvníky; šipky posouvají posuvník. K dřívější větě se vrátit nelze.",
        Text::SignOut => "Odhlásit se",
    }
}
