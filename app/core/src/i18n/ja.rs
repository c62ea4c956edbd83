//! Japanese (です・ます調).

use super::{Msg, Text};

pub(super) const NAMES: [&str; 11] =
    ["英語", "ドイツ語", "チェコ語", "中国語", "日本語", "アラビア語", "ヒンディー語", "フランス語", "スペイン語", "ロシア語", "ウクライナ語"];

pub(super) fn msg(m: Msg) -> &'static str {
    match m {
        Msg::Loading => "読み込み中…",
        Msg::CannotOpen => "この HIT を開けません",
        Msg::KeptAnswer => "この項目への回答はこのページに残っています。もう一度ボタンを押して送信してください。",
        Msg::KeptRanks => "この画面の順位はこのページに残っています。もう一度ボタンを押して送信してください。",
        Msg::KeptSpans => "マークしたエラーと評価はこのページに残っています。もう一度ボタンを押して送信してください。",
        Msg::SliderNotSet => "未設定。「{low}」と「{high}」の間",
        Msg::SliderAt => "「{end}」",
        Msg::SliderCloseTo => "「{end}」の近く",
        Msg::SliderLeaning => "やや「{end}」寄り",
        Msg::SliderMiddle => "中央",
        Msg::NotSetYet => "まだ設定されていません",
        Msg::KeysTitle => "キー：",
        Msg::KeysChooseBox => "ボックスを選ぶ（フォーカスのある質問、なければ最初の未回答の質問）",
        Msg::KeysNextQuestion => "次の質問",
        Msg::KeysGoOn => "次へ進む",
        Msg::KeysToTranslation => "訳文へ移動",
        Msg::KeysItsRank => "その順位（1 が最良）",
        Msg::KeysMoveLittle => "少し動かす",
        Msg::KeysMoveMore => "大きく動かす",
        Msg::KeysEnds => "両端へ",
        Msg::Progress => "{total} 件中 {n} 件目",
        Msg::ProgressRange => "訳文 {from}～{to}（全 {total} 件）",
        Msg::Instructions => "説明",
        Msg::HitSize => "この HIT には {n} 件の項目があります。",
        Msg::PracticeBefore => "HIT の前に：練習項目が {n} 件あり、回答ごとにフィードバックが表示されます。練習項目は HIT の一部ではなく、集計されません。",
        Msg::PracticeRequired => "{total} 件の回答のうち少なくとも {required} 件が、注意深い読み手の回答と同じ範囲に入る必要があります。そうでなければ練習は最初からやり直しになります。",
        Msg::PracticeResume => "現在、練習項目 {total} 件中 {n} 件目です。",
        Msg::StartPractice => "練習を始める",
        Msg::Start => "開始",
        Msg::PracticeLabel => "練習項目 {total} 件中 {n} 件目 · HIT には含まれません",
        Msg::PracticeFeedbackLabel => "練習項目 {total} 件中 {n} 件目 · フィードバック",
        Msg::StartHit => "HIT を始める",
        Msg::PracticeAgain => "練習をやり直す",
        Msg::NextPractice => "次の練習項目",
        Msg::WhySlider => "スライダーを動かして評価してください。",
        Msg::FirstSentence => "1 つ目の文",
        Msg::SecondSentence => "2 つ目の文",
        Msg::TranslationsFrom => "どちらの文も翻訳です。原文の言語：{source}。",
        Msg::Skip => "この項目をスキップ",
        Msg::WhyBoxesBoth => "次へ進むには、両方の質問でボックスを選んでください。",
        Msg::WhyBoxesFirst => "次へ進むには、1 つ目の質問でボックスを選んでください。",
        Msg::WhyBoxesSecond => "次へ進むには、2 つ目の質問でボックスを選んでください。",
        Msg::WhySlidersBoth => "両方のスライダーを動かして回答してください。",
        Msg::WhySliderFirst => "1 つ目のスライダーを動かして回答してください。",
        Msg::WhySliderSecond => "2 つ目のスライダーを動かして回答してください。",
        Msg::BoxEnd => "5 個中 {n} 番目のボックス：{end}",
        Msg::BoxN => "5 個中 {n} 番目のボックス",
        Msg::AllRanked => "すべての訳文に順位が付きました。",
        Msg::RanksLeftOne => "次へ進むには、あと 1 件の訳文に順位を付けてください（1 が最良。同じ品質の訳文には同じ順位を付けられます）。",
        Msg::RanksLeft => "順位が未設定の訳文：{k}。1 が最良です。同じ品質の訳文には同じ順位を付けられます。",
        Msg::SentenceNofM => "文 {n}／{total}",
        Msg::Sentence => "文",
        Msg::TranslationN => "訳文 {n}",
        Msg::RankBest => "1 位、最良",
        Msg::RankWorst => "{r} 位、最下位",
        Msg::RankN => "{r} 位",
        Msg::PairTranslationA => "訳文 A",
        Msg::PairTranslationB => "訳文 B",
        Msg::PairPickA => "A の方が良い",
        Msg::PairPickB => "B の方が良い",
        Msg::PairPickSame => "ほぼ同じ",
        Msg::PairChoose => "次へ進むには A、B、ほぼ同じのいずれかを選んでください。",
        Msg::PostEditField => "修正した訳文",
        Msg::PostEditUnchanged => "修正不要",
        Msg::PostEditKeys => "Ctrl+Enter で次へ。",
        Msg::PostEditEmpty => "訳文を書くか、「修正不要」を押してください。",
        Msg::ContrastiveSwitch => "比較する翻訳",
        Msg::Complete => "ありがとうございました。この HIT は完了です",
        Msg::Saved => "回答は保存されました。",
        Msg::HeldMessage => "主催者は完了コードを発行する前に、完了した HIT を確認します。確認が終わると、このページにコードが表示されます。今は何もする必要はありません。",
        Msg::YourCode => "完了コード：",
        Msg::ReturnToPlatform => "調査プラットフォームに戻る",
        Msg::KeepCode => "このコードを保管してください。主催者から求められることがあります。",
        Msg::SevMinor => "軽微なエラー",
        Msg::SevMajor => "重大なエラー",
        Msg::SevCritical => "致命的なエラー",
        Msg::SevNeutral => "中立（エラーではない）",
        Msg::MarkMinor => "軽微なエラー",
        Msg::MarkMajor => "重大なエラー",
        Msg::MarkCritical => "致命的なエラー",
        Msg::MarkNeutral => "中立（エラーではない）",
        Msg::EsaChooseCategory => "先にエラーのカテゴリを選んでください。",
        Msg::EsaMaxErrors => "セグメントごとのエラーは最大 {n} 個です。最も重大なものを残してください。",
        Msg::EsaMarked => "「{text}」をマークしました：{severity}。",
        Msg::EsaNowMajor => "「{text}」は重大なエラーになりました。",
        Msg::EsaRemoved => "エラー「{text}」を削除しました。",
        Msg::EsaMissingLabel => "[MISSING]：原文の一部が欠けている場合にマークします",
        Msg::EsaWordMarked => "{word}、マーク済み：{severity}",
        Msg::EsaHelp => "エラーの語を選択し（ドラッグするか、最初と最後の語をタップ）、重大さを選んでください。マークしたエラーをクリックすると変更できます。",
        Msg::EsaPrefilled => "いくつかのエラーが提案としてすでにマークされています。それぞれを確認し（そのまま残す、重大さを変える、削除する）、見落とされたエラーをマークしてください。",
        Msg::EsaToolbar => "選択した語をマーク",
        Msg::EsaSelected => "選択中：「{text}」",
        Msg::EsaNothingSelected => "語が選択されていません",
        Msg::EsaCategory => "カテゴリ",
        Msg::EsaChoose => "— 選択 —",
        Msg::Cancel => "キャンセル",
        Msg::EsaNoErrors => "エラーはマークされていません",
        Msg::EsaOneError => "エラーを一つマーク済み",
        Msg::EsaErrorsMarked => "マークしたエラー：{n} 個",
        Msg::MakeMajor => "重大に変更",
        Msg::MakeMinor => "軽微に変更",
        Msg::Remove => "削除",
        Msg::EsaScoreSegment => "このセグメントの翻訳の評価",
        Msg::EsaScoreDocument => "文書全体の翻訳の評価",
        Msg::EsaAnchorSome => "意味の一部が保たれている",
        Msg::EsaAnchorMost => "意味の大部分が保たれ、エラーは少ない",
        Msg::EsaConfirm => "低い評価をつけましたが、エラーがマークされていません。エラーをマークするか、もう一度ボタンを押してこの評価のまま送信してください。",
        Msg::WhyEsaScore => "スライダーを動かして翻訳を評価してください。",
        Msg::WhyEsaDocument => "文書全体も評価してください。",
        Msg::EsaSegmentOf => "この文書の {n} セグメント中 {k} 番目",
        Msg::EsaSoFar => "ここまでの文書",
        Msg::EsaRest => "文書の残り",
        Msg::KeysToTheTranslation => "翻訳へ",
        Msg::KeysWords => "語",
        Msg::KeysSelect => "選択",
        Msg::KeysMinor => "軽微",
        Msg::KeysMajor => "重大",
        Msg::KeysChangeError => "エラー上で：変更",
        Msg::KeysRemove => "削除",
        Msg::KeysElsewhere => "それ以外：次へ",
        Msg::Undo => "元に戻す",
        Msg::EsaUndone => "元に戻しました：エラーは直前の変更の前の状態です。",
        Msg::KeysUndo => "元に戻す",
        Msg::HitScreens => "この HIT は {screens} 画面です。各画面の文ごとに {outputs} 件の翻訳があり、1（最良）から {outputs} まで順位を付けます。",
    }
}

pub(super) fn text(t: Text) -> &'static str {
    match t {
        Text::StatementAdequacy => "下の文章を読み、次の記述にどの程度同意するかを評価してください：黒い文章は灰色の文章の意味を適切に表している。",
        Text::StatementFluency => "下の文章を読み、次の記述にどの程度同意するかを評価してください：この文章は流暢な{target}である。",
        Text::StatementSource => "下の文章を読み、次の記述にどの程度同意するかを評価してください：黒い文章は原文の意味を適切に表している。",
        Text::StatementRanking => "訳文を良いものから悪いものへ順位付けしてください（同順位も可）。",
        Text::AnchorLow => "まったくそう思わない",
        Text::AnchorHigh => "とてもそう思う",
        Text::WojQuestion1 => "1 つ目の文だけを見せられた場合、2 つ目の文の意味をつかむのはどのくらい難しいですか？",
        Text::WojQuestion2 => "語順そのものが、1 つ目の文の意味をどのくらい分かりにくくしていますか？",
        Text::WojLow1 => "とても難しい",
        Text::WojHigh1 => "とても易しい",
        Text::WojLow2 => "非常に",
        Text::WojHigh2 => "まったくない",
        Text::Next => "次へ",
        Text::LabelSource => "原文",
        Text::LabelReference => "参照訳",
        Text::LabelCandidate => "評価する訳文",
        Text::InstructionsAdequacy => "文章の組を 1 組ずつ読みます。灰色の文章（参照訳）は人による翻訳です。黒い文章（評価する訳文）は同じ文の別の翻訳です。

黒い文章が灰色の文章の意味を適切に表しているという記述にどの程度同意するかを、スライダーで示してください。回答の前に両方の文章を読み、スライダーの全体を使ってください：
- 黒い文章が、言い方は違っても灰色の文章の内容をすべて伝えているときは「とてもそう思う」の方へ。
- 意味の一部が欠けている、または変わっているときは中央の方へ。
- 黒い文章が別のことを言っている、または灰色の文章の内容をほとんど伝えていないときは「まったくそう思わない」の方へ。

灰色の文章が「会議は金曜日に移されました。」の場合の例：
- 「会議は金曜日に延期されました。」は別の言い方で同じことを言っています：「とてもそう思う」にかなり近く。
- 「会議は移されました。」は曜日が抜けています：はっきり低く。
- 「金曜日は会議です。」は意味が失われています：「まったくそう思わない」にかなり近く。

スライダーは最初は空です。スライダーをクリックまたはタップするか矢印キーを使い、ボタンを押して次へ進んでください。前の文章に戻ることはできません。",
        Text::InstructionsFluency => "文章を 1 つずつ読みます。{target}への翻訳です。

この文章が流暢な{target}であるという記述にどの程度同意するかを、スライダーで示してください。流暢とは、ネイティブスピーカーが書いたような自然で文法的に正しい{target}ということです。言葉だけを評価してください。原文の内容を知る必要はありません。スライダーの全体を使ってください：
- 良い{target}として読めるときは「とてもそう思う」の方へ。
- 意味は分かるが、ぎこちない表現や誤った表現があるときは中央の方へ。
- {target}としてほとんど読めないときは「まったくそう思わない」の方へ。

日本語の例：
- 「彼女はパリに十年住んでいます。」は流暢です：「とてもそう思う」にかなり近く。
- 「彼女はパリで十年に住んでいますです。」は意味は分かるが自然ではありません：低く。
- 「パリ年十に彼女いますは住んで。」は流暢ではありません：「まったくそう思わない」にかなり近く。

スライダーは最初は空です。スライダーをクリックまたはタップするか矢印キーを使い、ボタンを押して次へ進んでください。前の文章に戻ることはできません。",
        Text::InstructionsSource => "文章の組を 1 組ずつ読みます。1 つ目は{source}の原文で、黒い文章（評価する訳文）はその{target}への翻訳です。

黒い文章が原文の意味を適切に表しているという記述にどの程度同意するかを、スライダーで示してください。回答の前に両方の文章を読み、スライダーの全体を使ってください：
- 訳文が原文の内容をすべて伝えているときは「とてもそう思う」の方へ。
- 意味の一部が欠けている、または変わっているときは中央の方へ。
- 訳文が別のことを言っている、または原文の内容をほとんど伝えていないときは「まったくそう思わない」の方へ。

原文が「会議は金曜日に移されました。」という意味の場合の例：
- 言い方は違っても同じことを言っている訳文：「とてもそう思う」にかなり近く。
- 曜日が抜けている訳文：はっきり低く。
- 意味が失われている訳文：「まったくそう思わない」にかなり近く。

スライダーは最初は空です。スライダーをクリックまたはタップするか矢印キーを使い、ボタンを押して次へ進んでください。前の文章に戻ることはできません。",
        Text::InstructionsWordOrder => "各項目には 2 つの文が表示されます。1 つ目の文は{source}からの機械翻訳で、2 つ目の文は同じ{source}の文の人による翻訳です。両方を読み、2 つの質問に答えてください：
- 質問 1：1 つ目の文だけを見せられた場合、2 つ目の文の意味をつかむのはどのくらい難しいですか？
- 質問 2：語順そのものが、1 つ目の文の意味をどのくらい分かりにくくしていますか？ 語の選び方ではなく、順序だけを評価してください。

各質問には両端にだけラベルの付いた 5 つのボックスがあります。質問ごとにボックスを 1 つ選んでください。

2 つ目の文が「昨日、私は手紙を送りました。」の場合の例：
- 「昨日、私は手紙を送りました。」：意味はとても易しくつかめ、語順は意味をまったく分かりにくくしていません。
- 「私は送りました、昨日手紙を。」：易しくつかめます。語順が意味を少し分かりにくくしています。
- 「手紙を送りました私は昨日。」：語順が意味を非常に分かりにくくしています。

前の項目に戻ることはできません。",
        Text::InstructionsRanking => "原文が 1 つと、その後に複数の訳文が表示されます。訳文を良いものから悪いものへ順位付けしてください：
- 最も良い訳文を 1 位にします。
- 同じ品質の訳文には同じ順位を付けます（同順位も可）。
- すべての訳文に順位を付けるまで次へ進めません。

例：2 つの訳文が原文の内容を伝えていて、3 つ目が語を 1 つ抜かしている場合、最初の 2 つを 1 位、3 つ目を 3 位にします。

キーボードでは：Tab で訳文に移動し、その順位のキー（最良は 1）を押します。Enter で次へ進みます。前の画面に戻ることはできません。",
        Text::StatementEsa => "訳文の誤りをすべてマークし（選択してから軽微なエラーか重大なエラーを選ぶ）、次に意味がどれだけ保たれているかを評価してください。",
        Text::StatementMqm => "訳文の誤りをすべてマークしてください。選択し、カテゴリを選び、次に重大度を選びます。",
        Text::EsaAnchorLow => "意味がまったく保たれていない",
        Text::EsaAnchorHigh => "完璧な翻訳",
        Text::InstructionsEsa => "{source}の文書とその{target}への翻訳を、1 セグメントずつ読みます。そのセグメントより前のセグメントが、文脈として上に表示されます。

まず、枠内のセグメントの訳文の誤りをマークします。
- 誤っている語を選択し（その上をドラッグするか、最初の語、次に最後の語をタップ）、「軽微なエラー」または「重大なエラー」を選びます。
- 軽微なエラーとは、文章の意味を変えない誤った語や句、またはぎこちないが理解できる表現です。
- 重大なエラーとは、意味を変えたり失わせたりするもの、または文章を理解しにくくするものです。
- 原文の内容が訳文に欠けている場合は、末尾の [MISSING] トークンをマークします。
- マークしたエラーをクリックすると変更できます。軽微なエラーは重大なエラーになり、重大なエラーは削除されます。

次に、セグメント全体についてスライダーを設定します。
- 0：意味がまったく保たれていない、33：意味の一部が保たれている、66：意味の大部分が保たれ、エラーは少ない、100：完璧な翻訳。

例（原文の意味が「会議は金曜日に変更された。」の場合）：
- 「会議は金曜日に変更された。」：誤りなし、評価は 100 近く。
- 「会議は金曜日を変更された。」：「を」に軽微なエラー、評価は 80 近く。
- 「会議は中止された。」：「中止された」に重大なエラーと、欠けている金曜日（[MISSING]）、評価は 20 近く。

キーボードでは、Tab で訳文に入り、矢印キーで語の間を移動し、Shift を押しながら矢印キーで選択を広げ、1 で軽微なエラー、2 で重大なエラーをマークし、マークしたエラーの上で Enter を押すと変更できます。前のセグメントに戻ることはできません。",
        Text::InstructionsMqm => "{source}の文書とその{target}への翻訳を、1 セグメントずつ読みます。そのセグメントより前のセグメントが、文脈として上に表示されます。

枠内のセグメントの訳文の誤りをすべてマークします（MQM）。
- 誤っている語を選択し（その上をドラッグするか、最初の語、次に最後の語をタップ）、一覧から誤りのカテゴリを選び、次に重大度を選びます。
- 軽微なエラー：文章の意味を変えず、読み手を止めない実際の誤り（誤った助詞、抜けている読点など）。
- 重大なエラー：意味を変えたり失わせたりする誤り、または読み手を誤解させたり止めたりする誤り。
- 中立：注目に値するが誤りではないもの。
- 原文の内容が訳文に欠けている場合は、末尾の [MISSING] トークンをマークします（カテゴリは「正確さ/訳抜け」）。
- まったく翻訳になっていない訳文（別の言語、意味のない文字列）は、文章全体にわたる 1 つの「非翻訳」エラーとしてマークします。
- 1 セグメントにつき誤りは最大 5 つまでです。最も重大なものを残してください。

誤りのないセグメントは何もマークする必要はありません。ボタンを押して先に進んでください。

キーボードでは、Tab で訳文に入り、矢印キーで語の間を移動し、Shift を押しながら矢印キーで選択を広げ、カテゴリを選んでから「軽微なエラー」または「重大なエラー」を押します。前のセグメントに戻ることはできません。",
        Text::ErrNotSignedIn => "この HIT に取り組むにはサインインしてください。",
        Text::ErrNotYours => "この HIT は別の人に割り当てられています。",
        Text::ErrNotFound => "このアドレスに HIT はありません。",
        Text::ErrBlocked => "この作業者はこのキャンペーンに参加できなくなりました。",
        Text::ErrExpired => "この HIT は期限切れです。時間切れになり、別の作業者に割り当てられました。",
        Text::ErrReturned => "この HIT は返却され、もうあなたには割り当てられていません。",
        Text::ErrFinished => "この HIT は終了しています。これ以上回答は受け付けません。",
        Text::ErrNotStarted => "まず説明を読み、「開始」を押してください。",
        Text::ErrPracticeFirst => "まず練習項目を終えてください。HIT はその後に始まります。",
        Text::ErrReservationGone => "この HIT は数分間だけあなたのために確保されていましたが、別の作業者に割り当てられました。別の HIT を受けるには、リンクをもう一度開いてください。",
        Text::ErrPracticeOver => "練習は終わりました。この HIT は始まっています。",
        Text::ErrPracticeDone => "練習は完了しました。「開始」を押して HIT を始めてください。",
        Text::ErrPracticeNotCurrent => "これは現在の練習項目ではありません（現在は練習項目 {n} です）。ページを再読み込みして表示してください。",
        Text::ErrPracticeAnswered => "この練習項目にはすでに回答済みです。ページを再読み込みして現在の項目を表示してください。",
        Text::ErrAnsweredAlready => "項目 {n} にはすでに回答済みです。回答は変更できません。",
        Text::ErrNotCurrent => "項目 {n} は現在の項目ではありません。次は項目 {next} に回答してください。",
        Text::ErrScreenAnswered => "項目 {from}～{to} にはすでに回答済みです。回答は変更できません。",
        Text::ErrNotOnScreen => "項目 {n} は現在の画面にありません。次は項目 {next} に回答してください。",
        Text::ErrSameTime => "この HIT への別の回答が同時に届きました。ページを再読み込みしてください。",
        Text::FeedbackHigh => "注意深い読み手なら高く（「{high}」の方へ）評価します。{reason}。",
        Text::FeedbackLow => "注意深い読み手なら低く（「{low}」の方へ）評価します。{reason}。",
        Text::FeedbackWojHigh => "注意深い読み手なら「{high1}」と「{high2}」の方へ回答します。{reason}。",
        Text::FeedbackWojLow => "注意深い読み手なら 2 つ目の質問に「{low2}」の方へ回答します。{reason}。",
        Text::FeedbackSpansHigh => "注意深い読み手ならここに重大な誤りを付けず、高く（「{high}」の方へ）評価します。{reason}。",
        Text::FeedbackSpansLow => "注意深い読み手ならここに少なくとも 1 つ誤りを付け、低く（「{low}」の方へ）評価します。{reason}。",
        Text::FeedbackMqmHigh => "注意深い読み手ならここに重大または致命的な誤りを付けません。{reason}。",
        Text::FeedbackMqmLow => "注意深い読み手ならここに少なくとも 1 つ重大な誤りを付けます。{reason}。",
        Text::YourSpans => "あなたが付けた誤り：{n} 件、うち重大または致命的：{major} 件。",
        Text::YourRating => "あなたの評価：{words}。",
        Text::YourAnswers => "あなたの回答：{first}、{second}。",
        Text::FeedbackPair => "注意深い読み手なら{better}を選びます。{worse}では{reason}。",
        Text::FeedbackRanks => "注意深い読み手なら{better}を{worse}より上に順位付けします。{worse}では{reason}。",
        Text::YourPick => "あなたの選択：{choice}。",
        Text::YourRanks => "あなたの順位：{ranks}。",
        Text::VerdictIn => "あなたの回答は、注意深い読み手の回答と同じ範囲にあります。",
        Text::VerdictOut => "あなたの回答は、注意深い読み手の回答と同じ範囲にありません。",
        Text::RoundPassed => "練習完了：{total} 件中 {matched} 件の回答が、注意深い読み手の回答と同じ範囲にありました。HIT を始められます。",
        Text::RoundFailed => "{total} 件中 {matched} 件の回答が、注意深い読み手の回答と同じ範囲にありました。少なくとも {required} 件が必要です。フィードバックをもう一度読んでください。練習は最初からやり直しになります。",
        Text::ReasonSame => "1 つ目の文は 2 つ目の文と同じで、意味はとても易しくつかめ、語順は意味をまったく分かりにくくしていないからです",
        Text::ReasonFluent => "その言語に堪能な人による翻訳で、自然に読めるからです",
        Text::ReasonSourceHuman => "原文の人による翻訳で、原文の内容をすべて伝えているからです",
        Text::ReasonHuman => "同じ文の人による翻訳で、灰色の文章の内容をすべて伝えているからです",
        Text::ReasonMissing => "意味の一部が欠けていて（抜けている語：{words}）、{whose}の内容をすべて伝えていないからです",
        Text::ReasonReplaced => "語が意味を変える別の語に置き換えられていて（{words}）、{whose}の内容を伝えていないからです",
        Text::ReasonRepeated => "語が不要な場所で繰り返されていて（{words}）、自然に読めないからです",
        Text::ReasonOrder => "語順が乱れていて（{words} が本来の位置にない）、意味が分かりにくくなっているからです",
        Text::ReasonChanged => "わざと悪くなるように変更されているからです",
        Text::TheSource => "原文",
        Text::TheGrayText => "灰色の文章",
        Text::CrowdNoWorkTitle => "現在、作業はありません",
        Text::CrowdNoWork => "このキャンペーンには、現在あなたに割り当てられる HIT がありません。ご関心をお寄せいただきありがとうございます。",
        Text::CrowdTooManyTitle => "新しい作業者が多すぎます",
        Text::CrowdTooMany => "過去 1 時間に、あなたのネットワークアドレスから多くの新しい作業者が開始しました。しばらくしてからもう一度お試しください。",
        Text::CrowdHoldsFullTitle => "あなたのアドレスから未開始の HIT が多すぎます",
        Text::CrowdHoldsFull => "あなたのネットワークアドレスから、この調査の HIT がすでに複数確保されていますが、まだ 1 つも回答されていません。そのうちの 1 つを開始するか、使われていない確保が解除される数分後にもう一度お試しください。",
        Text::CrowdBusyTitle => "混雑中",
        Text::CrowdBusy => "多くの人が同時に開始しています。数秒後にこのページを再読み込みしてください。",
        Text::CrowdErrorTitle => "問題が発生しました",
        Text::CrowdError => "1 分後にもう一度お試しください。",
        Text::LinkInvalidTitle => "リンクが無効です",
        Text::LinkInvalid => "このキャンペーンのリンクは無効です。受け取ったリンクをそのままお使いください。",
        Text::CampaignGoneTitle => "キャンペーンが見つかりません",
        Text::CampaignGone => "このキャンペーンはもう存在しません。",
        Text::NoWorkerIdTitle => "どなたですか？",
        Text::NoWorkerId => "このリンクにはクラウドソーシング基盤のワーカー ID が必要です（Mechanical Turk は workerId、Prolific は PROLIFIC_PID、または worker）。",
        Text::PreviewTitle => "プレビュー",
        Text::PreviewSample => "サンプル項目（閲覧のみ）",
        Text::PreviewAccept => "HIT を受諾すると開始できます。項目は 1 件ずつ表示されます。",
        Text::WorkTitle => "翻訳の評価",
        Text::HomeWelcome => "ようこそ、{name} さん",
        Text::HomeRole => "アノテーター",
        Text::HomeYourWork => "あなたの作業",
        Text::HomeNoWork => "現在あなたを待っている HIT はありません。主催者があなたをキャンペーンに割り当てると、その HIT がここに表示されます。1 つにつき約 30 分かかります。",
        Text::HomeMinutesPerHit => "1 HIT あたり約 {minutes} 分",
        Text::HomeDone => "{n} 件完了",
        Text::HomeContinue => "続ける",
        Text::HomeStart => "HIT を開始",
        Text::HomeYourHits => "あなたの HIT",
        Text::HomeLoadingHits => "HIT を読み込み中…",
        Text::HomeFinished => "完了",
        Text::HomeNotStarted => "{total} 項目、未着手",
        Text::HomeItemsDone => "{total} 項目中 {answered} 項目完了",
        Text::HomeNoHits => "進行中の HIT はありません。上のキャンペーンから開始してください。",
        Text::HomeTaskAdequacy => "妥当性",
        Text::HomeTaskFluency => "流暢さ",
        Text::HomeTaskSource => "妥当性（原文）",
        Text::HomeTaskWordOrder => "語順",
        Text::HomeTaskRanking => "順位付け",
        Text::HomeTaskEsa => "誤りの箇所",
        Text::HomeTaskMqm => "カテゴリ付きの誤り",
        Text::HomeTaskPairwise => "一対比較",
        Text::StatementPairwise => "どちらの訳文が良いですか？",
        Text::InstructionsPairwise => "{source}の文が 1 つと、その{target}への訳文が 2 つ並べて表示されます（スマートフォンでは上下に）。良い方の訳文を選んでください：
- A：1 つ目の訳文（左または上）の方が良い；
- B：2 つ目の訳文（右または下）の方が良い；
- ほぼ同じ：どちらもはっきりとは良くない。

良い訳文とは、原文の内容を漏れなく正しく、自然な{target}で伝えている訳文です。

キーボードでは：A は 1、B は 2、ほぼ同じは 3（または矢印キーで選択肢を移動）；Enter で次へ進みます。前のペアには戻れません。",
        Text::HomeTaskPostEdit => "ポストエディット",
        Text::StatementPostEdit => "原文の意味を自然な{target}で表すよう訳文を修正してください。",
        Text::InstructionsPostEdit => "{source}の文と、その{target}への機械翻訳がテキスト欄に表示されます。訳文を修正してください：
- 誤っている部分だけを直してください（意味、訳抜け・余分な語、文法、綴り、句読点）；
- 正しい部分は、別の言い方をしたくても残してください；
- 修正が不要なら「修正不要」を押してください。

欄が空の場合は、ご自身で文を翻訳してください。

キーボード：Tab で欄へ移動、Ctrl+Enter（または Cmd+Enter）で次へ。前の文には戻れません。",
        Text::HomeTaskContrastive => "対照エラー範囲",
        Text::StatementContrastive => "各翻訳の誤りをすべてマークし（選択して「軽微」か「重大」を選ぶ）、それぞれが意味をどれだけ保っているかを採点してください。",
        Text::InstructionsContrastive => "{source}の文と、その{target}への翻訳 2～4 個が横に並べて表示されます（スマートフォンでは一つずつ表示され、上の「翻訳 1」「翻訳 2」…のボタンで切り替えます。文は上に表示されたままです）。

各翻訳について：
- 誤りをマークします。誤っている語を選び（ドラッグするか、最初の語と最後の語をタップ）、「軽微」か「重大」を選びます。文の一部が抜けている場合は [MISSING] をマークします。
- 次に 0（意味がまったく保たれていない）から 100（完璧な翻訳）で採点します。

翻訳どうしを比べてください。より良い翻訳にはより高い点を付けます。誤りをマークせずに低い点を付けると確認を求められます。

キーボードでは、Tab で翻訳、その語、スライダーの間を移動し、矢印キーでスライダーを動かします。前の文には戻れません。",
        Text::SignOut => "ログアウト",
    }
}
