//! German (Sie-Form, as crowd platforms address workers).

use super::{Msg, Text};

pub(super) const NAMES: [&str; 11] =
    ["Englisch", "Deutsch", "Tschechisch", "Chinesisch", "Japanisch", "Arabisch", "Hindi", "Französisch", "Spanisch", "Russisch", "Ukrainisch"];

pub(super) fn msg(m: Msg) -> &'static str {
    match m {
        Msg::Loading => "Wird geladen …",
        Msg::CannotOpen => "Dieser HIT kann nicht geöffnet werden",
        Msg::KeptAnswer => "Ihre Antwort auf dieses Element bleibt auf dieser Seite erhalten: Drücken Sie die Schaltfläche erneut, um sie zu senden.",
        Msg::KeptRanks => "Ihre Ränge auf dieser Seite bleiben erhalten: Drücken Sie die Schaltfläche erneut, um sie zu senden.",
        Msg::KeptSpans => "Ihre markierten Fehler und Ihre Bewertung bleiben auf dieser Seite erhalten: Drücken Sie die Schaltfläche erneut, um sie zu senden.",
        Msg::SliderNotSet => "nicht gesetzt; zwischen „{low}“ und „{high}“",
        Msg::SliderAt => "„{end}“",
        Msg::SliderCloseTo => "nahe bei „{end}“",
        Msg::SliderLeaning => "eher in Richtung „{end}“",
        Msg::SliderMiddle => "in der Mitte",
        Msg::NotSetYet => "Noch nicht gesetzt",
        Msg::KeysTitle => "Tasten:",
        Msg::KeysChooseBox => "ein Kästchen wählen (bei der Frage mit dem Fokus, sonst bei der ersten unbeantworteten)",
        Msg::KeysNextQuestion => "nächste Frage",
        Msg::KeysGoOn => "weiter",
        Msg::KeysToTranslation => "zu einer Übersetzung",
        Msg::KeysItsRank => "ihr Rang (1 ist der beste)",
        Msg::KeysMoveLittle => "ein wenig verschieben",
        Msg::KeysMoveMore => "weiter verschieben",
        Msg::KeysEnds => "an die Enden",
        Msg::Progress => "{n} von {total}",
        Msg::ProgressRange => "Übersetzungen {from} bis {to} von {total}",
        Msg::Instructions => "Anleitung",
        Msg::HitSize => "Dieser HIT umfasst {n} Elemente.",
        Msg::PracticeBefore => "Vor dem HIT: {n} Übungselemente mit einer Rückmeldung nach jeder Antwort. Sie gehören nicht zum HIT und werden nicht gewertet.",
        Msg::PracticeRequired => "Mindestens {required} der {total} Antworten müssen dort liegen, wo die einer sorgfältigen Leserin oder eines sorgfältigen Lesers läge; sonst beginnt die Übung von vorn.",
        Msg::PracticeResume => "Sie sind bei Übungselement {n} von {total}.",
        Msg::StartPractice => "Übung beginnen",
        Msg::Start => "Beginnen",
        Msg::PracticeLabel => "Übungselement {n} von {total} · nicht Teil des HITs",
        Msg::PracticeFeedbackLabel => "Übungselement {n} von {total} · Rückmeldung",
        Msg::StartHit => "HIT beginnen",
        Msg::PracticeAgain => "Übung erneut beginnen",
        Msg::NextPractice => "Nächstes Übungselement",
        Msg::WhySlider => "Bewegen Sie den Schieberegler, um Ihre Bewertung abzugeben.",
        Msg::FirstSentence => "Erster Satz",
        Msg::SecondSentence => "Zweiter Satz",
        Msg::TranslationsFrom => "Beide Sätze sind Übersetzungen. Ausgangssprache: {source}.",
        Msg::Skip => "Dieses Element überspringen",
        Msg::WhyBoxesBoth => "Wählen Sie bei beiden Fragen ein Kästchen, um fortzufahren.",
        Msg::WhyBoxesFirst => "Wählen Sie bei der ersten Frage ein Kästchen, um fortzufahren.",
        Msg::WhyBoxesSecond => "Wählen Sie bei der zweiten Frage ein Kästchen, um fortzufahren.",
        Msg::WhySlidersBoth => "Bewegen Sie beide Schieberegler, um Ihre Antworten abzugeben.",
        Msg::WhySliderFirst => "Bewegen Sie den ersten Schieberegler, um Ihre Antwort abzugeben.",
        Msg::WhySliderSecond => "Bewegen Sie den zweiten Schieberegler, um Ihre Antwort abzugeben.",
        Msg::BoxEnd => "Kästchen {n} von 5: {end}",
        Msg::BoxN => "Kästchen {n} von 5",
        Msg::AllRanked => "Jede Übersetzung hat einen Rang.",
        Msg::RanksLeftOne => "Vergeben Sie noch einer Übersetzung einen Rang, um fortzufahren (1 ist der beste Rang; gleich gute Übersetzungen dürfen denselben Rang haben).",
        Msg::RanksLeft => "Übersetzungen ohne Rang: {k}. 1 ist der beste Rang; gleich gute Übersetzungen dürfen denselben Rang haben.",
        Msg::SentenceNofM => "Satz {n} von {total}",
        Msg::Sentence => "Satz",
        Msg::TranslationN => "Übersetzung {n}",
        Msg::RankBest => "Rang 1, der beste",
        Msg::RankWorst => "Rang {r}, der schlechteste",
        Msg::RankN => "Rang {r}",
        Msg::PairTranslationA => "Übersetzung A",
        Msg::PairTranslationB => "Übersetzung B",
        Msg::PairPickA => "A ist besser",
        Msg::PairPickB => "B ist besser",
        Msg::PairPickSame => "Etwa gleich",
        Msg::PairChoose => "Wählen Sie A, B oder etwa gleich, um weiterzugehen.",
        Msg::PostEditField => "Ihre korrigierte Übersetzung",
        Msg::PostEditUnchanged => "Keine Änderung nötig",
        Msg::PostEditKeys => "Strg+Eingabe geht weiter.",
        Msg::PostEditEmpty => "Schreiben Sie die Übersetzung oder drücken Sie „Keine Änderung nötig“.",
        Msg::ContrastiveSwitch => "Zu vergleichende Übersetzungen",
        Msg::Complete => "Vielen Dank: Dieser HIT ist abgeschlossen",
        Msg::Saved => "Ihre Antworten wurden gespeichert.",
        Msg::HeldMessage => "Die Organisatoren prüfen abgeschlossene HITs, bevor sie Abschlusscodes vergeben. Sobald die Prüfung abgeschlossen ist, wird Ihr Code auf dieser Seite angezeigt. Sie müssen jetzt nichts weiter tun.",
        Msg::YourCode => "Ihr Abschlusscode:",
        Msg::ReturnToPlatform => "Zurück zur Studienplattform",
        Msg::KeepCode => "Bewahren Sie diesen Code auf: Die Organisatoren fragen möglicherweise danach.",
        Msg::SevMinor => "leichter Fehler",
        Msg::SevMajor => "schwerer Fehler",
        Msg::SevCritical => "kritischer Fehler",
        Msg::SevNeutral => "neutral (kein Fehler)",
        Msg::MarkMinor => "Leichter Fehler",
        Msg::MarkMajor => "Schwerer Fehler",
        Msg::MarkCritical => "Kritischer Fehler",
        Msg::MarkNeutral => "Neutral (kein Fehler)",
        Msg::EsaChooseCategory => "Wählen Sie zuerst die Kategorie des Fehlers.",
        Msg::EsaMaxErrors => "Höchstens {n} Fehler pro Segment: Behalten Sie die schwersten.",
        Msg::EsaMarked => "„{text}“ markiert: {severity}.",
        Msg::EsaNowMajor => "„{text}“ ist jetzt ein schwerer Fehler.",
        Msg::EsaRemoved => "Fehler „{text}“ entfernt.",
        Msg::EsaMissingLabel => "[MISSING]: markieren, wenn etwas aus dem Ausgangstext fehlt",
        Msg::EsaWordMarked => "{word}, markiert: {severity}",
        Msg::EsaHelp => "Wählen Sie die Wörter eines Fehlers aus (ziehen, oder das erste und das letzte Wort antippen) und geben Sie dann an, wie schwer er ist. Klicken Sie auf einen markierten Fehler, um ihn zu ändern.",
        Msg::EsaPrefilled => "Einige Fehler sind bereits als Vorschläge markiert: Prüfen Sie jeden (behalten, Schwere ändern oder entfernen) und markieren Sie die Fehler, die fehlen.",
        Msg::EsaToolbar => "Ausgewählte Wörter markieren",
        Msg::EsaSelected => "Ausgewählt: „{text}“",
        Msg::EsaNothingSelected => "Keine Wörter ausgewählt",
        Msg::EsaCategory => "Kategorie",
        Msg::EsaChoose => "— auswählen —",
        Msg::Cancel => "Abbrechen",
        Msg::EsaNoErrors => "Keine Fehler markiert",
        Msg::EsaOneError => "Ein Fehler markiert",
        Msg::EsaErrorsMarked => "{n} Fehler markiert",
        Msg::MakeMajor => "Als schwer einstufen",
        Msg::MakeMinor => "Als leicht einstufen",
        Msg::Remove => "Entfernen",
        Msg::EsaScoreSegment => "Bewertung der Übersetzung dieses Segments",
        Msg::EsaScoreDocument => "Bewertung der Übersetzung des ganzen Dokuments",
        Msg::EsaAnchorSome => "Teile der Bedeutung erhalten",
        Msg::EsaAnchorMost => "Bedeutung größtenteils erhalten, wenige Fehler",
        Msg::EsaConfirm => "Sie haben eine niedrige Bewertung gegeben, aber keinen Fehler markiert. Markieren Sie die Fehler, oder drücken Sie die Schaltfläche noch einmal, um die Bewertung so zu senden.",
        Msg::WhyEsaScore => "Bewegen Sie den Schieberegler, um die Übersetzung zu bewerten.",
        Msg::WhyEsaDocument => "Bewerten Sie auch das ganze Dokument.",
        Msg::EsaSegmentOf => "Segment {k} von {n} dieses Dokuments",
        Msg::EsaSoFar => "Das Dokument bis hierher",
        Msg::EsaRest => "Der Rest des Dokuments",
        Msg::KeysToTheTranslation => "zur Übersetzung",
        Msg::KeysWords => "Wörter",
        Msg::KeysSelect => "auswählen",
        Msg::KeysMinor => "leicht",
        Msg::KeysMajor => "schwer",
        Msg::KeysChangeError => "auf einem Fehler: ändern",
        Msg::KeysRemove => "entfernen",
        Msg::KeysElsewhere => "sonst: weiter",
        Msg::Undo => "Rückgängig",
        Msg::EsaUndone => "Rückgängig gemacht: Die Fehler sind wie vor der letzten Änderung.",
        Msg::KeysUndo => "rückgängig",
        Msg::HitScreens => "Dieser HIT umfasst {screens} Seiten; zu jedem Satz einer Seite gibt es {outputs} Übersetzungen, die Sie von 1 (beste) bis {outputs} ordnen.",
    }
}

pub(super) fn text(t: Text) -> &'static str {
    match t {
        Text::StatementAdequacy => "Lesen Sie den folgenden Text und geben Sie an, wie sehr Sie dieser Aussage zustimmen: Der schwarze Text gibt die Bedeutung des grauen Textes angemessen wieder.",
        Text::StatementFluency => "Lesen Sie den folgenden Text und geben Sie an, wie sehr Sie dieser Aussage zustimmen: Der Text ist flüssiges {target}.",
        Text::StatementSource => "Lesen Sie den folgenden Text und geben Sie an, wie sehr Sie dieser Aussage zustimmen: Der schwarze Text gibt die Bedeutung des Ausgangstextes angemessen wieder.",
        Text::StatementRanking => "Ordnen Sie die Übersetzungen von der besten bis zur schlechtesten (gleiche Ränge sind erlaubt).",
        Text::AnchorLow => "stimme überhaupt nicht zu",
        Text::AnchorHigh => "stimme voll und ganz zu",
        Text::WojQuestion1 => "Wie schwer wäre es, die Bedeutung des zweiten Satzes zu erfassen, wenn Ihnen nur der erste gezeigt würde?",
        Text::WojQuestion2 => "Wie stark verdunkelt allein die Reihenfolge der Wörter die Bedeutung des ersten Satzes?",
        Text::WojLow1 => "Sehr schwer",
        Text::WojHigh1 => "Sehr leicht",
        Text::WojLow2 => "Sehr stark",
        Text::WojHigh2 => "Überhaupt nicht",
        Text::Next => "Weiter",
        Text::LabelSource => "Ausgangstext",
        Text::LabelReference => "Referenz",
        Text::LabelCandidate => "Zu bewertende Übersetzung",
        Text::InstructionsAdequacy => "Sie lesen Textpaare, jeweils ein Paar auf einmal. Der graue Text (die Referenz) ist eine menschliche Übersetzung. Der schwarze Text (die zu bewertende Übersetzung) ist eine andere Übersetzung desselben Satzes.

Zeigen Sie mit dem Schieberegler, wie sehr Sie zustimmen, dass der schwarze Text die Bedeutung des grauen Textes angemessen wiedergibt. Lesen Sie beide Texte, bevor Sie antworten, und nutzen Sie die ganze Länge des Schiebereglers:
- in Richtung „stimme voll und ganz zu“, wenn der schwarze Text alles sagt, was der graue Text sagt, auch mit anderen Worten;
- in Richtung Mitte, wenn ein Teil der Bedeutung fehlt oder verändert ist;
- in Richtung „stimme überhaupt nicht zu“, wenn der schwarze Text etwas anderes oder nur sehr wenig vom grauen Text sagt.

Beispiele mit dem grauen Text „Die Besprechung wurde auf Freitag verlegt.“:
- „Die Besprechung wurde auf Freitag verschoben.“ sagt dasselbe mit anderen Worten: weit in Richtung „stimme voll und ganz zu“.
- „Die Besprechung wurde verlegt.“ lässt den Tag weg: deutlich niedriger.
- „Freitag ist eine Besprechung.“ verliert die Bedeutung: weit in Richtung „stimme überhaupt nicht zu“.

Der Schieberegler ist zu Beginn leer: Klicken oder tippen Sie darauf oder verwenden Sie die Pfeiltasten und drücken Sie dann die Schaltfläche, um fortzufahren. Sie können nicht zu einem früheren Text zurückkehren.",
        Text::InstructionsFluency => "Sie lesen jeweils einen Text: eine Übersetzung (Zielsprache: {target}).

Zeigen Sie mit dem Schieberegler, wie sehr Sie zustimmen, dass der Text flüssiges {target} ist: natürlich und grammatisch korrekt, so wie es eine Muttersprachlerin oder ein Muttersprachler geschrieben haben könnte. Beurteilen Sie nur die Sprache; Sie müssen nicht wissen, was im Original stand. Nutzen Sie die ganze Länge des Schiebereglers:
- in Richtung „stimme voll und ganz zu“, wenn er sich wie gutes {target} liest;
- in Richtung Mitte, wenn er verständlich ist, aber holprige oder falsche Wendungen enthält;
- in Richtung „stimme überhaupt nicht zu“, wenn er sich kaum als {target} lesen lässt.

Beispiele auf Deutsch:
- „Sie lebt seit zehn Jahren in Paris.“ ist flüssig: weit in Richtung „stimme voll und ganz zu“.
- „Sie lebt in Paris seit zehn Jahre.“ ist verständlich, aber nicht natürlich: niedriger.
- „Paris Jahren zehn sie seit lebt in.“ ist nicht flüssig: weit in Richtung „stimme überhaupt nicht zu“.

Der Schieberegler ist zu Beginn leer: Klicken oder tippen Sie darauf oder verwenden Sie die Pfeiltasten und drücken Sie dann die Schaltfläche, um fortzufahren. Sie können nicht zu einem früheren Text zurückkehren.",
        Text::InstructionsSource => "Sie lesen Textpaare, jeweils ein Paar auf einmal. Der erste ist der Ausgangstext (Sprache: {source}); der schwarze Text (die zu bewertende Übersetzung) ist eine Übersetzung davon (Sprache: {target}).

Zeigen Sie mit dem Schieberegler, wie sehr Sie zustimmen, dass der schwarze Text die Bedeutung des Ausgangstextes angemessen wiedergibt. Lesen Sie beide Texte, bevor Sie antworten, und nutzen Sie die ganze Länge des Schiebereglers:
- in Richtung „stimme voll und ganz zu“, wenn die Übersetzung alles sagt, was der Ausgangstext sagt;
- in Richtung Mitte, wenn ein Teil der Bedeutung fehlt oder verändert ist;
- in Richtung „stimme überhaupt nicht zu“, wenn sie etwas anderes oder nur sehr wenig vom Ausgangstext sagt.

Beispiele für einen Ausgangstext mit der Bedeutung „Die Besprechung wurde auf Freitag verlegt.“:
- eine Übersetzung, die dasselbe sagt, auch mit anderen Worten: weit in Richtung „stimme voll und ganz zu“;
- eine Übersetzung, die den Tag weglässt: deutlich niedriger;
- eine Übersetzung, die die Bedeutung verliert: weit in Richtung „stimme überhaupt nicht zu“.

Der Schieberegler ist zu Beginn leer: Klicken oder tippen Sie darauf oder verwenden Sie die Pfeiltasten und drücken Sie dann die Schaltfläche, um fortzufahren. Sie können nicht zu einem früheren Text zurückkehren.",
        Text::InstructionsWordOrder => "Jedes Element zeigt zwei Sätze. Der erste Satz ist eine maschinelle Übersetzung, der zweite eine menschliche Übersetzung desselben Satzes (Ausgangssprache: {source}). Lesen Sie beide und beantworten Sie dann beide Fragen:
- Frage 1: Wie schwer wäre es, die Bedeutung des zweiten Satzes zu erfassen, wenn Ihnen nur der erste gezeigt würde?
- Frage 2: Wie stark verdunkelt allein die Reihenfolge der Wörter die Bedeutung des ersten Satzes? Beurteilen Sie nur die Reihenfolge, nicht die Wortwahl.

Jede Frage hat fünf Kästchen, die nur an den Enden beschriftet sind; wählen Sie für jede Frage ein Kästchen.

Beispiele mit dem zweiten Satz „Gestern habe ich den Brief abgeschickt.“:
- „Gestern habe ich den Brief abgeschickt.“: Die Bedeutung ist sehr leicht zu erfassen, und die Reihenfolge verdunkelt sie überhaupt nicht.
- „Gestern ich habe abgeschickt den Brief.“: leicht zu erfassen; die Reihenfolge verdunkelt die Bedeutung ein wenig.
- „Brief den gestern abgeschickt ich habe.“: Die Reihenfolge verdunkelt die Bedeutung sehr stark.

Sie können nicht zu einem früheren Element zurückkehren.",
        Text::InstructionsRanking => "Ihnen wird ein Ausgangssatz gezeigt, gefolgt von mehreren Übersetzungen. Ordnen Sie die Übersetzungen von der besten bis zur schlechtesten:
- Geben Sie der besten Übersetzung Rang 1;
- geben Sie gleich guten Übersetzungen denselben Rang (gleiche Ränge sind erlaubt);
- jede Übersetzung braucht einen Rang, bevor Sie fortfahren können.

Beispiel: Wenn zwei Übersetzungen sagen, was der Ausgangssatz sagt, und eine dritte ein Wort auslässt, geben Sie den ersten beiden Rang 1 und der dritten Rang 3.

Mit der Tastatur: Mit Tab zu einer Übersetzung, dann ihren Rang drücken (1 für die beste); Enter geht weiter. Sie können nicht zu einer früheren Seite zurückkehren.",
        Text::StatementEsa => "Markieren Sie jeden Fehler in der Übersetzung (auswählen, dann „Leichter Fehler“ oder „Schwerer Fehler“ wählen) und bewerten Sie dann, wie viel von der Bedeutung erhalten bleibt.",
        Text::StatementMqm => "Markieren Sie jeden Fehler in der Übersetzung: auswählen, seine Kategorie wählen, dann wie schwer er ist.",
        Text::EsaAnchorLow => "Keine Bedeutung erhalten",
        Text::EsaAnchorHigh => "Perfekte Übersetzung",
        Text::InstructionsEsa => "Sie lesen Dokumente mit ihrer Übersetzung, jeweils ein Segment auf einmal (Ausgangssprache: {source}, Zielsprache: {target}); die Segmente davor stehen zum Kontext darüber.

Markieren Sie zuerst die Fehler in der Übersetzung des Segments im Kasten:
- Wählen Sie die falschen Wörter aus (darüber ziehen, oder das erste und dann das letzte Wort antippen) und wählen Sie dann „Leichter Fehler“ oder „Schwerer Fehler“;
- ein leichter Fehler ist ein falsches Wort oder eine falsche Wendung, die nicht ändert, was der Text bedeutet, oder eine holprige, aber verständliche Formulierung;
- ein schwerer Fehler ändert die Bedeutung oder lässt sie verloren gehen, oder er macht den Text schwer verständlich;
- wenn etwas aus dem Ausgangstext in der Übersetzung fehlt, markieren Sie das Zeichen [MISSING] am Ende;
- klicken Sie auf einen markierten Fehler, um ihn zu ändern: Aus einem leichten wird ein schwerer, ein schwerer wird entfernt.

Stellen Sie dann den Schieberegler für das ganze Segment ein:
- 0: keine Bedeutung erhalten; 33: Teile der Bedeutung erhalten; 66: Bedeutung größtenteils erhalten, wenige Fehler; 100: perfekte Übersetzung.

Beispiele für einen Ausgangstext mit der Bedeutung „Die Besprechung wurde auf Freitag verlegt.“:
- „Die Besprechung wurde auf Freitag verlegt.“: kein Fehler, die Bewertung nahe 100;
- „Die Besprechung wurde auf Freitag verlegen.“: ein leichter Fehler bei „verlegen“, die Bewertung nahe 80;
- „Die Besprechung wurde abgesagt.“: ein schwerer Fehler bei „abgesagt“ und ein fehlender Freitag ([MISSING]), die Bewertung nahe 20.

Mit der Tastatur: Mit Tab in die Übersetzung, mit den Pfeiltasten zwischen den Wörtern wechseln, mit gedrückter Umschalttaste und den Pfeiltasten die Auswahl erweitern, 1 für einen leichten oder 2 für einen schweren Fehler drücken und Enter auf einem markierten Fehler, um ihn zu ändern. Sie können nicht zu einem früheren Segment zurückkehren.",
        Text::InstructionsMqm => "Sie lesen Dokumente mit ihrer Übersetzung, jeweils ein Segment auf einmal (Ausgangssprache: {source}, Zielsprache: {target}); die Segmente davor stehen zum Kontext darüber.

Markieren Sie jeden Fehler in der Übersetzung des Segments im Kasten (MQM):
- Wählen Sie die falschen Wörter aus (darüber ziehen, oder das erste und dann das letzte Wort antippen), wählen Sie die Kategorie des Fehlers aus der Liste und dann seine Schwere;
- Leichter Fehler: ein echter Fehler, der nicht ändert, was der Text bedeutet, und den Leser nicht aufhält (eine falsche Präposition, ein fehlendes Komma);
- Schwerer Fehler: ein Fehler, der die Bedeutung ändert oder verloren gehen lässt, oder der den Leser irreführen oder aufhalten würde;
- Neutral: etwas Bemerkenswertes, das kein Fehler ist;
- wenn etwas aus dem Ausgangstext in der Übersetzung fehlt, markieren Sie das Zeichen [MISSING] am Ende (Kategorie Genauigkeit/Auslassung);
- eine Übersetzung, die gar keine Übersetzung ist (eine andere Sprache, sinnlose Zeichen), ist ein einziger Fehler „Keine Übersetzung“, markiert über den ganzen Text;
- höchstens fünf Fehler pro Segment: Behalten Sie die schwersten.

Ein Segment ohne Fehler braucht keine Markierung: Drücken Sie die Schaltfläche, um fortzufahren.

Mit der Tastatur: Mit Tab in die Übersetzung, mit den Pfeiltasten zwischen den Wörtern wechseln, mit gedrückter Umschalttaste und den Pfeiltasten die Auswahl erweitern, dann die Kategorie wählen und „Leichter Fehler“ oder „Schwerer Fehler“ drücken. Sie können nicht zu einem früheren Segment zurückkehren.",
        Text::ErrNotSignedIn => "Bitte melden Sie sich an, um an diesem HIT zu arbeiten.",
        Text::ErrNotYours => "Dieser HIT ist jemand anderem zugewiesen.",
        Text::ErrNotFound => "Unter dieser Adresse gibt es keinen HIT.",
        Text::ErrBlocked => "Diese Person darf an dieser Kampagne nicht mehr teilnehmen.",
        Text::ErrExpired => "Dieser HIT ist abgelaufen: Die Zeit war um, und er ging an eine andere Person.",
        Text::ErrReturned => "Dieser HIT wurde zurückgegeben und ist Ihnen nicht mehr zugewiesen.",
        Text::ErrFinished => "Dieser HIT ist abgeschlossen; es werden keine Antworten mehr angenommen.",
        Text::ErrNotStarted => "Bitte lesen Sie zuerst die Anleitung und drücken Sie auf „Beginnen“.",
        Text::ErrPracticeFirst => "Bitte schließen Sie zuerst die Übungselemente ab: Der HIT beginnt danach.",
        Text::ErrReservationGone => "Dieser HIT war nur für einige Minuten für Sie reserviert und ist an eine andere Person gegangen. Öffnen Sie Ihren Link erneut, um einen anderen HIT zu erhalten.",
        Text::ErrPracticeOver => "Die Übung ist vorbei: Dieser HIT hat begonnen.",
        Text::ErrPracticeDone => "Die Übung ist abgeschlossen: Drücken Sie auf „Beginnen“, um den HIT zu starten.",
        Text::ErrPracticeNotCurrent => "Dies ist nicht das aktuelle Übungselement (das ist Übungselement {n}); laden Sie die Seite neu, um es zu sehen.",
        Text::ErrPracticeAnswered => "Dieses Übungselement wurde bereits beantwortet; laden Sie die Seite neu, um das aktuelle zu sehen.",
        Text::ErrAnsweredAlready => "Element {n} wurde bereits beantwortet; eine Antwort kann nicht geändert werden.",
        Text::ErrNotCurrent => "Element {n} ist nicht das aktuelle Element: Beantworten Sie als Nächstes Element {next}.",
        Text::ErrScreenAnswered => "Die Elemente {from} bis {to} wurden bereits beantwortet; Antworten können nicht geändert werden.",
        Text::ErrNotOnScreen => "Element {n} ist nicht auf der aktuellen Seite: Beantworten Sie als Nächstes Element {next}.",
        Text::ErrSameTime => "Gleichzeitig ist eine andere Antwort für diesen HIT eingegangen; bitte laden Sie die Seite neu.",
        Text::FeedbackHigh => "Eine sorgfältige Leserin oder ein sorgfältiger Leser würde dies hoch bewerten (in Richtung „{high}“), denn {reason}.",
        Text::FeedbackLow => "Eine sorgfältige Leserin oder ein sorgfältiger Leser würde dies niedrig bewerten (in Richtung „{low}“), denn {reason}.",
        Text::FeedbackWojHigh => "Eine sorgfältige Leserin oder ein sorgfältiger Leser würde in Richtung „{high1}“ und „{high2}“ antworten, denn {reason}.",
        Text::FeedbackWojLow => "Eine sorgfältige Leserin oder ein sorgfältiger Leser würde die zweite Frage in Richtung „{low2}“ beantworten, denn {reason}.",
        Text::FeedbackSpansHigh => "Eine sorgfältige Leserin oder ein sorgfältiger Leser würde hier keinen schweren Fehler markieren und hoch bewerten (in Richtung „{high}“), denn {reason}.",
        Text::FeedbackSpansLow => "Eine sorgfältige Leserin oder ein sorgfältiger Leser würde hier mindestens einen Fehler markieren und niedrig bewerten (in Richtung „{low}“), denn {reason}.",
        Text::FeedbackMqmHigh => "Eine sorgfältige Leserin oder ein sorgfältiger Leser würde hier keinen schweren oder kritischen Fehler markieren, denn {reason}.",
        Text::FeedbackMqmLow => "Eine sorgfältige Leserin oder ein sorgfältiger Leser würde hier mindestens einen schweren Fehler markieren, denn {reason}.",
        Text::YourSpans => "Von Ihnen markierte Fehler: {n}, davon schwer oder kritisch: {major}.",
        Text::YourRating => "Ihre Bewertung: {words}.",
        Text::YourAnswers => "Ihre Antworten: {first} und {second}.",
        Text::FeedbackPair => "Eine sorgfältige Leserin oder ein sorgfältiger Leser würde {better} vorziehen, denn bei {worse} gilt: {reason}.",
        Text::FeedbackRanks => "Eine sorgfältige Leserin oder ein sorgfältiger Leser würde {better} vor {worse} einordnen, denn bei {worse} gilt: {reason}.",
        Text::YourPick => "Ihre Wahl: {choice}.",
        Text::YourRanks => "Ihre Ränge: {ranks}.",
        Text::VerdictIn => "Ihre Antwort liegt dort, wo die einer sorgfältigen Leserin oder eines sorgfältigen Lesers läge.",
        Text::VerdictOut => "Ihre Antwort liegt nicht dort, wo die einer sorgfältigen Leserin oder eines sorgfältigen Lesers läge.",
        Text::RoundPassed => "Übung abgeschlossen: {matched} von {total} Antworten lagen dort, wo die einer sorgfältigen Leserin oder eines sorgfältigen Lesers läge. Sie können den HIT jetzt beginnen.",
        Text::RoundFailed => "{matched} von {total} Antworten lagen dort, wo die einer sorgfältigen Leserin oder eines sorgfältigen Lesers läge; mindestens {required} sind nötig. Lesen Sie die Rückmeldungen noch einmal: Die Übung beginnt von vorn.",
        Text::ReasonSame => "der erste Satz ist derselbe wie der zweite: Seine Bedeutung ist sehr leicht zu erfassen, und seine Wortstellung verdunkelt sie überhaupt nicht",
        Text::ReasonFluent => "es ist eine menschliche Übersetzung von jemandem, der die Sprache fließend beherrscht: Sie liest sich natürlich",
        Text::ReasonSourceHuman => "es ist eine menschliche Übersetzung des Ausgangstextes: Sie sagt alles, was der Ausgangstext sagt",
        Text::ReasonHuman => "es ist eine menschliche Übersetzung desselben Satzes: Sie sagt alles, was der graue Text sagt",
        Text::ReasonMissing => "ein Teil der Bedeutung fehlt (weggelassen: {words}), daher sagt er nicht alles, was {whose} sagt",
        Text::ReasonReplaced => "Wörter wurden durch andere ersetzt, die die Bedeutung ändern ({words}), daher sagt er nicht, was {whose} sagt",
        Text::ReasonRepeated => "Wörter werden wiederholt, wo sie nicht hingehören ({words}), daher liest er sich nicht natürlich",
        Text::ReasonOrder => "seine Wörter stehen in falscher Reihenfolge ({words} nicht an ihrem Platz), was seine Bedeutung verdunkelt",
        Text::ReasonChanged => "er wurde absichtlich verschlechtert",
        Text::TheSource => "der Ausgangstext",
        Text::TheGrayText => "der graue Text",
        Text::CrowdNoWorkTitle => "Im Moment keine Arbeit",
        Text::CrowdNoWork => "In dieser Kampagne gibt es im Moment keinen HIT für Sie. Vielen Dank für Ihr Interesse.",
        Text::CrowdTooManyTitle => "Zu viele neue Teilnehmende",
        Text::CrowdTooMany => "In der letzten Stunde haben viele neue Personen von Ihrer Netzwerkadresse aus begonnen. Bitte versuchen Sie es später erneut.",
        Text::CrowdHoldsFullTitle => "Zu viele nicht begonnene Aufgaben von Ihrer Adresse",
        Text::CrowdHoldsFull => "Von Ihrer Netzwerkadresse aus sind bereits mehrere Aufgaben dieser Studie reserviert, ohne dass eine einzige Antwort gegeben wurde. Beginnen Sie eine davon, oder versuchen Sie es in einigen Minuten erneut, wenn ungenutzte Reservierungen freigegeben sind.",
        Text::CrowdBusyTitle => "Ausgelastet",
        Text::CrowdBusy => "Viele Personen beginnen gleichzeitig; bitte laden Sie diese Seite in einigen Sekunden neu.",
        Text::CrowdErrorTitle => "Etwas ist schiefgegangen",
        Text::CrowdError => "Bitte versuchen Sie es in einer Minute erneut.",
        Text::LinkInvalidTitle => "Link ungültig",
        Text::LinkInvalid => "Dieser Kampagnenlink ist ungültig. Bitte verwenden Sie den Link genau so, wie Sie ihn erhalten haben.",
        Text::CampaignGoneTitle => "Keine solche Kampagne",
        Text::CampaignGone => "Diese Kampagne gibt es nicht mehr.",
        Text::NoWorkerIdTitle => "Wer sind Sie?",
        Text::NoWorkerId => "Dieser Link braucht die Worker-ID der Crowd-Plattform (workerId für Mechanical Turk, PROLIFIC_PID für Prolific oder worker).",
        Text::PreviewTitle => "Vorschau",
        Text::PreviewSample => "Ein Beispielelement (nur zum Lesen)",
        Text::PreviewAccept => "Nehmen Sie den HIT an, um zu beginnen. Sie sehen jeweils ein Element.",
        Text::WorkTitle => "Übersetzungen bewerten",
        Text::HomeWelcome => "Willkommen, {name}",
        Text::HomeRole => "Annotator·in",
        Text::HomeYourWork => "Ihre Arbeit",
        Text::HomeNoWork => "Im Moment wartet kein HIT auf Sie. Sobald eine Organisatorin oder ein Organisator Sie einer Kampagne zuordnet, erscheinen deren HITs hier; jeder dauert etwa eine halbe Stunde.",
        Text::HomeMinutesPerHit => "etwa {minutes} Minuten pro HIT",
        Text::HomeDone => "{n} erledigt",
        Text::HomeContinue => "Fortsetzen",
        Text::HomeStart => "Einen HIT beginnen",
        Text::HomeYourHits => "Ihre HITs",
        Text::HomeLoadingHits => "Ihre HITs werden geladen …",
        Text::HomeFinished => "abgeschlossen",
        Text::HomeNotStarted => "{total} Elemente, nicht begonnen",
        Text::HomeItemsDone => "{answered} von {total} Elementen erledigt",
        Text::HomeNoHits => "Sie haben keinen HIT in Arbeit. Beginnen Sie einen aus einer Kampagne oben.",
        Text::HomeTaskAdequacy => "Angemessenheit",
        Text::HomeTaskFluency => "Flüssigkeit",
        Text::HomeTaskSource => "Angemessenheit (Ausgangstext)",
        Text::HomeTaskWordOrder => "Wortstellung",
        Text::HomeTaskRanking => "Rangfolge",
        Text::HomeTaskEsa => "Fehlerstellen",
        Text::HomeTaskMqm => "Fehler mit Kategorien",
        Text::HomeTaskPairwise => "Paarvergleich",
        Text::StatementPairwise => "Welche Übersetzung ist besser?",
        Text::InstructionsPairwise => "Ihnen werden ein Satz auf {source} und zwei Übersetzungen ins {target} nebeneinander gezeigt (auf dem Telefon untereinander). Wählen Sie die bessere Übersetzung:
- A: die erste Übersetzung (links oder oben) ist besser;
- B: die zweite Übersetzung (rechts oder unten) ist besser;
- Etwa gleich: keine ist deutlich besser.

Eine bessere Übersetzung sagt vollständig und richtig, was der Ausgangstext sagt, in natürlichem {target}.

Mit der Tastatur: 1 für A, 2 für B, 3 für etwa gleich (oder die Pfeiltasten, um zwischen den Antworten zu wechseln); Enter geht weiter. Sie können nicht zu einem früheren Paar zurückkehren.",
        Text::HomeTaskPostEdit => "Nachbearbeitung",
        Text::StatementPostEdit => "Korrigieren Sie die Übersetzung so, dass sie sagt, was der Ausgangstext sagt, in natürlichem {target}.",
        Text::InstructionsPostEdit => "Ihnen werden ein Satz auf {source} und seine maschinelle Übersetzung ins {target} in einem Textfeld gezeigt. Korrigieren Sie die Übersetzung:
- ändern Sie nur, was falsch ist: Bedeutung, fehlende oder zusätzliche Wörter, Grammatik, Rechtschreibung, Zeichensetzung;
- behalten Sie, was richtig ist, auch wenn Sie es anders gesagt hätten;
- braucht die Übersetzung keine Änderung, drücken Sie „Keine Änderung nötig“.

Ist das Feld leer, übersetzen Sie den Satz selbst.

Mit der Tastatur: Mit Tab ins Feld; Strg+Eingabe (oder Cmd+Eingabe) geht weiter. Sie können nicht zu einem früheren Satz zurückkehren.",
        Text::HomeTaskContrastive => "kontrastive Fehlerspannen",
        Text::StatementContrastive => "Markieren Sie jeden Fehler in jeder Übersetzung (auswählen, dann leicht oder schwer wählen) und bewerten Sie dann, wie viel der Bedeutung jede bewahrt.",
        Text::InstructionsContrastive => "Ihnen werden ein Satz auf {source} und zwei bis vier Übersetzungen davon ins {target} nebeneinander gezeigt (auf einem Telefon eine nach der anderen: die Schaltflächen „Übersetzung 1“, „Übersetzung 2“, … darüber wechseln zwischen ihnen; der Satz bleibt oben).

Für jede Übersetzung:
- markieren Sie ihre Fehler: wählen Sie die falschen Wörter aus (darüber ziehen oder das erste und dann das letzte Wort antippen) und wählen Sie dann leicht oder schwer; fehlt etwas vom Satz, markieren Sie [MISSING];
- geben Sie ihr dann eine Bewertung von 0 (keine Bedeutung bewahrt) bis 100 (perfekte Übersetzung).

Vergleichen Sie die Übersetzungen miteinander: eine bessere Übersetzung erhält eine höhere Bewertung. Eine niedrige Bewertung ohne markierten Fehler müssen Sie bestätigen.

Mit der Tastatur: Tab wechselt zwischen den Übersetzungen, ihren Wörtern und ihren Schiebereglern; die Pfeiltasten bewegen einen Schieberegler. Sie können nicht zu einem früheren Satz zurückkehren.",
        Text::SignOut => "Abmelden",
    }
}
