//! Chinese in simplified characters.

use super::{Msg, Text};

pub(super) const NAMES: [&str; 11] = ["英语", "德语", "捷克语", "中文", "日语", "阿拉伯语", "印地语", "法语", "西班牙语", "俄语", "乌克兰语"];

pub(super) fn msg(m: Msg) -> &'static str {
    match m {
        Msg::Loading => "正在加载…",
        Msg::CannotOpen => "无法打开此 HIT",
        Msg::KeptAnswer => "您对此项的回答仍保留在本页：请再次按下按钮提交。",
        Msg::KeptRanks => "您在此屏的排名仍保留在本页：请再次按下按钮提交。",
        Msg::KeptSpans => "您标记的错误和评分仍保留在本页：请再次按下按钮提交。",
        Msg::SliderNotSet => "尚未设置；位于“{low}”和“{high}”之间",
        Msg::SliderAt => "“{end}”",
        Msg::SliderCloseTo => "接近“{end}”",
        Msg::SliderLeaning => "偏向“{end}”",
        Msg::SliderMiddle => "居中",
        Msg::NotSetYet => "尚未设置",
        Msg::KeysTitle => "按键：",
        Msg::KeysChooseBox => "选择一个方框（作用于当前焦点所在的问题，否则作用于第一个未回答的问题）",
        Msg::KeysNextQuestion => "下一个问题",
        Msg::KeysGoOn => "继续",
        Msg::KeysToTranslation => "移到一个译文",
        Msg::KeysItsRank => "它的名次（1 为最好）",
        Msg::KeysMoveLittle => "小幅移动",
        Msg::KeysMoveMore => "大幅移动",
        Msg::KeysEnds => "移到两端",
        Msg::Progress => "第 {n} 项，共 {total} 项",
        Msg::ProgressRange => "第 {from} 至 {to} 条译文，共 {total} 条",
        Msg::Instructions => "说明",
        Msg::HitSize => "此 HIT 共有 {n} 项。",
        Msg::PracticeBefore => "开始 HIT 之前：{n} 个练习项，每次回答后都有反馈。练习项不属于 HIT，也不计入结果。",
        Msg::PracticeRequired => "{total} 个回答中至少要有 {required} 个落在细心的读者会给出的位置；否则练习将重新开始。",
        Msg::PracticeResume => "您正在做第 {n} 个练习项，共 {total} 个。",
        Msg::StartPractice => "开始练习",
        Msg::Start => "开始",
        Msg::PracticeLabel => "练习项 {n}/{total} · 不属于 HIT",
        Msg::PracticeFeedbackLabel => "练习项 {n}/{total} · 反馈",
        Msg::StartHit => "开始 HIT",
        Msg::PracticeAgain => "重新开始练习",
        Msg::NextPractice => "下一个练习项",
        Msg::WhySlider => "请移动滑块给出您的评分。",
        Msg::FirstSentence => "第一句",
        Msg::SecondSentence => "第二句",
        Msg::TranslationsFrom => "两个句子都是译文，原文语言：{source}。",
        Msg::Skip => "跳过此项",
        Msg::WhyBoxesBoth => "请为两个问题各选择一个方框后继续。",
        Msg::WhyBoxesFirst => "请为第一个问题选择一个方框后继续。",
        Msg::WhyBoxesSecond => "请为第二个问题选择一个方框后继续。",
        Msg::WhySlidersBoth => "请移动两个滑块给出您的回答。",
        Msg::WhySliderFirst => "请移动第一个滑块给出您的回答。",
        Msg::WhySliderSecond => "请移动第二个滑块给出您的回答。",
        Msg::BoxEnd => "第 {n} 个方框，共 5 个：{end}",
        Msg::BoxN => "第 {n} 个方框，共 5 个",
        Msg::AllRanked => "所有译文都已排名。",
        Msg::RanksLeftOne => "还有 1 条译文需要排名才能继续（1 为最好；质量相同的译文可以并列）。",
        Msg::RanksLeft => "尚待排名的译文：{k}。1 为最好；质量相同的译文可以并列。",
        Msg::SentenceNofM => "第 {n} 句，共 {total} 句",
        Msg::Sentence => "句子",
        Msg::TranslationN => "译文 {n}",
        Msg::RankBest => "第 1 名，最好",
        Msg::RankWorst => "第 {r} 名，最差",
        Msg::RankN => "第 {r} 名",
        Msg::PairTranslationA => "译文 A",
        Msg::PairTranslationB => "译文 B",
        Msg::PairPickA => "A 更好",
        Msg::PairPickB => "B 更好",
        Msg::PairPickSame => "差不多",
        Msg::PairChoose => "请选择 A、B 或差不多以继续。",
        Msg::PostEditField => "您修改后的译文",
        Msg::PostEditUnchanged => "无需修改",
        Msg::PostEditKeys => "Ctrl+Enter 继续。",
        Msg::PostEditEmpty => "请写出译文，或按“无需修改”。",
        Msg::ContrastiveSwitch => "需要比较的译文",
        Msg::Complete => "谢谢：此 HIT 已完成",
        Msg::Saved => "您的回答已保存。",
        Msg::HeldMessage => "组织者会在发放完成码之前审核已完成的 HIT。审核完成后，您的完成码将显示在本页。您现在无需再做任何事。",
        Msg::YourCode => "您的完成码：",
        Msg::ReturnToPlatform => "返回研究平台",
        Msg::KeepCode => "请保存此完成码：组织者可能会要求您提供。",
        Msg::SevMinor => "轻微错误",
        Msg::SevMajor => "严重错误",
        Msg::SevCritical => "致命错误",
        Msg::SevNeutral => "中性（不算错误）",
        Msg::MarkMinor => "轻微错误",
        Msg::MarkMajor => "严重错误",
        Msg::MarkCritical => "致命错误",
        Msg::MarkNeutral => "中性（不算错误）",
        Msg::EsaChooseCategory => "请先选择错误类别。",
        Msg::EsaMaxErrors => "每个片段最多 {n} 个错误：请保留最严重的。",
        Msg::EsaMarked => "已标记“{text}”：{severity}。",
        Msg::EsaNowMajor => "“{text}”现在是严重错误。",
        Msg::EsaRemoved => "已删除错误“{text}”。",
        Msg::EsaMissingLabel => "[MISSING]：如果缺少原文的内容，请标记此处",
        Msg::EsaWordMarked => "{word}，已标记：{severity}",
        Msg::EsaHelp => "选择错误所在的词语（拖动，或先点第一个词再点最后一个词），然后选择其严重程度。点击已标记的错误可以更改它。",
        Msg::EsaPrefilled => "一些错误已作为建议预先标记：请逐一检查（保留、更改严重程度或删除），并标记建议遗漏的错误。",
        Msg::EsaToolbar => "标记所选词语",
        Msg::EsaSelected => "已选择：“{text}”",
        Msg::EsaNothingSelected => "未选择词语",
        Msg::EsaCategory => "类别",
        Msg::EsaChoose => "— 请选择 —",
        Msg::Cancel => "取消",
        Msg::EsaNoErrors => "未标记错误",
        Msg::EsaOneError => "已标记一个错误",
        Msg::EsaErrorsMarked => "已标记 {n} 个错误",
        Msg::MakeMajor => "改为严重",
        Msg::MakeMinor => "改为轻微",
        Msg::Remove => "删除",
        Msg::EsaScoreSegment => "本片段译文的评分",
        Msg::EsaScoreDocument => "整篇文档译文的评分",
        Msg::EsaAnchorSome => "保留了部分意思",
        Msg::EsaAnchorMost => "保留了大部分意思，错误很少",
        Msg::EsaConfirm => "您给出了较低的评分，但没有标记任何错误。请标记错误，或再次按下按钮按原样提交评分。",
        Msg::WhyEsaScore => "请移动滑块为译文评分。",
        Msg::WhyEsaDocument => "还请为整篇文档评分。",
        Msg::EsaSegmentOf => "本文档第 {k} 段，共 {n} 段",
        Msg::EsaSoFar => "文档前文",
        Msg::EsaRest => "文档其余部分",
        Msg::KeysToTheTranslation => "到译文",
        Msg::KeysWords => "词语",
        Msg::KeysSelect => "选择",
        Msg::KeysMinor => "轻微",
        Msg::KeysMajor => "严重",
        Msg::KeysChangeError => "在错误上：更改",
        Msg::KeysRemove => "删除",
        Msg::KeysElsewhere => "其他位置：继续",
        Msg::Undo => "撤销",
        Msg::EsaUndone => "已撤销：错误恢复到上一次更改之前。",
        Msg::KeysUndo => "撤销",
        Msg::HitScreens => "此 HIT 共有 {screens} 屏；每屏的每个句子有 {outputs} 个译文，请从 1（最好）到 {outputs} 排序。",
    }
}

pub(super) fn text(t: Text) -> &'static str {
    match t {
        Text::StatementAdequacy => "请阅读下面的文本，并评价您在多大程度上同意以下说法：黑色文本充分表达了灰色文本的意思。",
        Text::StatementFluency => "请阅读下面的文本，并评价您在多大程度上同意以下说法：这段文本是流畅的{target}。",
        Text::StatementSource => "请阅读下面的文本，并评价您在多大程度上同意以下说法：黑色文本充分表达了原文的意思。",
        Text::StatementRanking => "请将译文从最好到最差排名（允许并列）。",
        Text::AnchorLow => "非常不同意",
        Text::AnchorHigh => "非常同意",
        Text::WojQuestion1 => "如果只给您看第一句，理解第二句的意思会有多难？",
        Text::WojQuestion2 => "仅词语的顺序本身在多大程度上妨碍了第一句意思的理解？",
        Text::WojLow1 => "非常困难",
        Text::WojHigh1 => "非常容易",
        Text::WojLow2 => "极大",
        Text::WojHigh2 => "完全没有",
        Text::Next => "下一项",
        Text::LabelSource => "原文",
        Text::LabelReference => "参考译文",
        Text::LabelCandidate => "待评译文",
        Text::InstructionsAdequacy => "您将阅读成对的文本，每次一对。灰色文本（参考译文）是人工翻译。黑色文本（待评译文）是同一句子的另一个译文。

请移动滑块，表示您在多大程度上同意黑色文本充分表达了灰色文本的意思。回答前请读完两段文本，并充分利用滑块的整个长度：
- 当黑色文本表达了灰色文本的全部意思（即使措辞不同）时，靠近“非常同意”；
- 当部分意思缺失或被改变时，靠近中间；
- 当黑色文本说的是别的内容，或只表达了灰色文本很少的意思时，靠近“非常不同意”。

示例，灰色文本为“会议改到了星期五。”：
- “会议推迟到了星期五。”用不同的说法表达了相同的意思：远远靠近“非常同意”。
- “会议改了时间。”漏掉了日期：明显更低。
- “星期五是一个会议。”丢失了原意：远远靠近“非常不同意”。

滑块一开始是空的：请点击或轻触滑块，或使用方向键，然后按下按钮继续。您不能返回之前的文本。",
        Text::InstructionsFluency => "您每次将阅读一段文本：一段{target}译文。

请移动滑块，表示您在多大程度上同意这段文本是流畅的{target}：自然、合乎语法，像母语者写出来的{target}。只评价语言本身；您不需要知道原文说了什么。请充分利用滑块的整个长度：
- 当它读起来像地道的{target}时，靠近“非常同意”；
- 当它能看懂，但有别扭或错误的表达时，靠近中间；
- 当它几乎读不出是{target}时，靠近“非常不同意”。

中文示例：
- “她在巴黎住了十年。”是流畅的：远远靠近“非常同意”。
- “她住在巴黎已经十年了了。”能看懂但不自然：更低。
- “巴黎年十她了住在。”不流畅：远远靠近“非常不同意”。

滑块一开始是空的：请点击或轻触滑块，或使用方向键，然后按下按钮继续。您不能返回之前的文本。",
        Text::InstructionsSource => "您将阅读成对的文本，每次一对。第一段是{source}原文；黑色文本（待评译文）是它的{target}译文。

请移动滑块，表示您在多大程度上同意黑色文本充分表达了原文的意思。回答前请读完两段文本，并充分利用滑块的整个长度：
- 当译文表达了原文的全部意思时，靠近“非常同意”；
- 当部分意思缺失或被改变时，靠近中间；
- 当译文说的是别的内容，或只表达了原文很少的意思时，靠近“非常不同意”。

示例，原文的意思是“会议改到了星期五。”：
- 表达了相同意思的译文，即使措辞不同：远远靠近“非常同意”；
- 漏掉了日期的译文：明显更低；
- 丢失了原意的译文：远远靠近“非常不同意”。

滑块一开始是空的：请点击或轻触滑块，或使用方向键，然后按下按钮继续。您不能返回之前的文本。",
        Text::InstructionsWordOrder => "每一项显示两个句子。第一句是从{source}机器翻译的译文；第二句是同一个{source}句子的人工译文。请读完两句，然后回答两个问题：
- 问题 1：如果只给您看第一句，理解第二句的意思会有多难？
- 问题 2：仅词语的顺序本身在多大程度上妨碍了第一句意思的理解？只评价语序，不评价用词。

每个问题有五个方框，只在两端有标注；请为每个问题选择一个方框。

示例，第二句为“我昨天寄出了那封信。”：
- “我昨天寄出了那封信。”：意思非常容易理解，语序完全没有妨碍理解。
- “昨天我那封信寄出了。”：容易理解；语序稍微妨碍了理解。
- “信那封昨天了寄出我。”：语序极大地妨碍了理解。

您不能返回之前的项目。",
        Text::InstructionsRanking => "您将看到一个原文句子，后面是几个译文。请将译文从最好到最差排名：
- 最好的译文排第 1 名；
- 质量相同的译文给相同的名次（允许并列）；
- 每个译文都有名次后才能继续。

示例：如果两个译文都表达了原文的意思，而第三个漏掉了一个词，请给前两个第 1 名，第三个第 3 名。

使用键盘：按 Tab 移到一个译文，然后按它的名次（最好的为 1）；按 Enter 继续。您不能返回之前的屏幕。",
        Text::StatementEsa => "标出译文中的每个错误（选中后选择轻微错误或严重错误），然后评估译文保留了多少原意。",
        Text::StatementMqm => "标出译文中的每个错误：选中它，选择其类别，再选择其严重程度。",
        Text::EsaAnchorLow => "完全没有保留原意",
        Text::EsaAnchorHigh => "完美的译文",
        Text::InstructionsEsa => "您将阅读{source}文档及其{target}译文，每次一个片段；该片段之前的片段显示在其上方，作为上下文。

首先标出框中片段译文的错误：
- 选中有错的词语（在其上拖动，或先点第一个词再点最后一个词），然后选择“轻微错误”或“严重错误”；
- 轻微错误是不改变文本意思的错词或错误短语，或别扭但能看懂的表达；
- 严重错误会改变或丢失意思，或使文本难以理解；
- 如果原文的某些内容在译文中缺失，请标记末尾的 [MISSING] 标记；
- 点击已标记的错误可以更改它：轻微错误变为严重错误，严重错误则被删除。

然后为整个片段设置滑块：
- 0：完全没有保留原意；33：保留了部分意思；66：保留了大部分意思，错误很少；100：完美的译文。

示例，原文意为“会议改到了星期五。”：
- “会议改到了星期五。”：没有错误，评分接近 100；
- “会议改到了星期午。”：“星期午”是轻微错误，评分接近 80；
- “会议取消了。”：“取消了”是严重错误，并缺少“星期五”（[MISSING]），评分接近 20。

使用键盘：按 Tab 进入译文，用方向键在词语之间移动，按住 Shift 加方向键扩大选择，按 1 标记轻微错误、按 2 标记严重错误，在已标记的错误上按 Enter 可更改它。您无法返回之前的片段。",
        Text::InstructionsMqm => "您将阅读{source}文档及其{target}译文，每次一个片段；该片段之前的片段显示在其上方，作为上下文。

标出框中片段译文的每个错误（MQM）：
- 选中有错的词语（在其上拖动，或先点第一个词再点最后一个词），从列表中选择错误的类别，再选择其严重程度；
- 轻微错误：确实是错误，但不改变文本的意思，也不妨碍阅读（用错介词、缺少逗号）；
- 严重错误：改变或丢失意思，或会误导读者、妨碍阅读的错误；
- 中性：值得注意但不算错误的地方；
- 如果原文的某些内容在译文中缺失，请标记末尾的 [MISSING] 标记（类别为“准确性/遗漏”）；
- 根本不是译文的译文（其他语言、乱码）算作一个“非翻译”错误，标记在整个文本上；
- 每个片段最多五个错误：保留最严重的。

没有错误的片段无需标记：按下按钮继续。

使用键盘：按 Tab 进入译文，用方向键在词语之间移动，按住 Shift 加方向键扩大选择，然后选择类别并按“轻微错误”或“严重错误”。您无法返回之前的片段。",
        Text::ErrNotSignedIn => "请登录后再处理此 HIT。",
        Text::ErrNotYours => "此 HIT 已分配给其他人。",
        Text::ErrNotFound => "此地址没有 HIT。",
        Text::ErrBlocked => "此工作者已不能再参加此项目。",
        Text::ErrExpired => "此 HIT 已过期：时间已用完，它已分配给其他工作者。",
        Text::ErrReturned => "此 HIT 已被退回，不再分配给您。",
        Text::ErrFinished => "此 HIT 已完成；不再接受回答。",
        Text::ErrNotStarted => "请先阅读说明，然后按“开始”。",
        Text::ErrPracticeFirst => "请先完成练习项：HIT 在练习之后开始。",
        Text::ErrReservationGone => "此 HIT 只为您保留了几分钟，现已分配给其他工作者。请再次打开您的链接获取另一个 HIT。",
        Text::ErrPracticeOver => "练习已结束：此 HIT 已经开始。",
        Text::ErrPracticeDone => "练习已完成：请按“开始”开始 HIT。",
        Text::ErrPracticeNotCurrent => "这不是当前的练习项（当前是练习项 {n}）；请刷新页面查看。",
        Text::ErrPracticeAnswered => "此练习项已经回答过了；请刷新页面查看当前的练习项。",
        Text::ErrAnsweredAlready => "第 {n} 项已经回答过了；回答不能更改。",
        Text::ErrNotCurrent => "第 {n} 项不是当前项：接下来请回答第 {next} 项。",
        Text::ErrScreenAnswered => "第 {from} 至 {to} 项已经回答过了；回答不能更改。",
        Text::ErrNotOnScreen => "第 {n} 项不在当前屏幕上：接下来请回答第 {next} 项。",
        Text::ErrSameTime => "此 HIT 同时收到了另一个回答；请刷新页面。",
        Text::FeedbackHigh => "细心的读者会给出高分（靠近“{high}”），因为{reason}。",
        Text::FeedbackLow => "细心的读者会给出低分（靠近“{low}”），因为{reason}。",
        Text::FeedbackWojHigh => "细心的读者会选择靠近“{high1}”和“{high2}”的回答，因为{reason}。",
        Text::FeedbackWojLow => "细心的读者对第二个问题会选择靠近“{low2}”的回答，因为{reason}。",
        Text::FeedbackSpansHigh => "细心的读者在这里不会标出严重错误，并会给出高分（靠近“{high}”），因为{reason}。",
        Text::FeedbackSpansLow => "细心的读者在这里会至少标出一处错误，并会给出低分（靠近“{low}”），因为{reason}。",
        Text::FeedbackMqmHigh => "细心的读者在这里不会标出严重或致命错误，因为{reason}。",
        Text::FeedbackMqmLow => "细心的读者在这里会至少标出一处严重错误，因为{reason}。",
        Text::YourSpans => "您标出的错误：{n} 处，其中严重或致命：{major} 处。",
        Text::YourRating => "您的评分：{words}。",
        Text::YourAnswers => "您的回答：{first}；{second}。",
        Text::FeedbackPair => "细心的读者会选择{better}，因为在{worse}中，{reason}。",
        Text::FeedbackRanks => "细心的读者会把{better}排在{worse}之上，因为在{worse}中，{reason}。",
        Text::YourPick => "您的选择：{choice}。",
        Text::YourRanks => "您的排名：{ranks}。",
        Text::VerdictIn => "您的回答落在细心的读者会给出的位置。",
        Text::VerdictOut => "您的回答没有落在细心的读者会给出的位置。",
        Text::RoundPassed => "练习完成：{total} 个回答中有 {matched} 个落在细心的读者会给出的位置。您现在可以开始 HIT 了。",
        Text::RoundFailed => "{total} 个回答中有 {matched} 个落在细心的读者会给出的位置；至少需要 {required} 个。请再读一遍反馈：练习将重新开始。",
        Text::ReasonSame => "第一句与第二句相同：它的意思非常容易理解，语序完全没有妨碍理解",
        Text::ReasonFluent => "这是由语言流利的人完成的人工翻译：读起来很自然",
        Text::ReasonSourceHuman => "这是原文的人工翻译：它表达了原文的全部意思",
        Text::ReasonHuman => "这是同一句子的人工翻译：它表达了灰色文本的全部意思",
        Text::ReasonMissing => "部分意思缺失（漏掉了 {words}），所以它没有表达{whose}的全部意思",
        Text::ReasonReplaced => "一些词被改变意思的其他词替换了（{words}），所以它没有表达{whose}的意思",
        Text::ReasonRepeated => "一些词在不该出现的地方重复了（{words}），所以读起来不自然",
        Text::ReasonOrder => "它的词序是乱的（{words} 不在应在的位置），妨碍了意思的理解",
        Text::ReasonChanged => "它被故意改得更差",
        Text::TheSource => "原文",
        Text::TheGrayText => "灰色文本",
        Text::CrowdNoWorkTitle => "目前没有任务",
        Text::CrowdNoWork => "此项目目前没有可分配给您的 HIT。感谢您的关注。",
        Text::CrowdTooManyTitle => "新工作者过多",
        Text::CrowdTooMany => "过去一小时内有许多新工作者从您的网络地址开始。请稍后再试。",
        Text::CrowdHoldsFullTitle => "您的地址有太多未开始的任务",
        Text::CrowdHoldsFull => "您的网络地址已占用本研究的多个任务，但尚未给出任何回答。请开始其中一个，或在几分钟后未使用的占用被释放时再试。",
        Text::CrowdBusyTitle => "繁忙",
        Text::CrowdBusy => "很多人同时开始；请在几秒钟后刷新此页面。",
        Text::CrowdErrorTitle => "出了点问题",
        Text::CrowdError => "请一分钟后再试。",
        Text::LinkInvalidTitle => "链接无效",
        Text::LinkInvalid => "此项目链接无效。请完全按照您收到的样子使用该链接。",
        Text::CampaignGoneTitle => "没有此项目",
        Text::CampaignGone => "此项目已不存在。",
        Text::NoWorkerIdTitle => "您是谁？",
        Text::NoWorkerId => "此链接需要众包平台的工作者 ID（Mechanical Turk 为 workerId，Prolific 为 PROLIFIC_PID，或 worker）。",
        Text::PreviewTitle => "预览",
        Text::PreviewSample => "示例项（只读）",
        Text::PreviewAccept => "接受 HIT 后即可开始。每次显示一项。",
        Text::WorkTitle => "翻译评估",
        Text::HomeWelcome => "欢迎，{name}",
        Text::HomeRole => "标注员",
        Text::HomeYourWork => "您的工作",
        Text::HomeNoWork => "目前没有等待您的 HIT。组织者将您分配到某个评测活动后，其 HIT 会显示在这里；每个约需半小时。",
        Text::HomeMinutesPerHit => "每个 HIT 约 {minutes} 分钟",
        Text::HomeDone => "已完成 {n} 个",
        Text::HomeContinue => "继续",
        Text::HomeStart => "开始一个 HIT",
        Text::HomeYourHits => "您的 HIT",
        Text::HomeLoadingHits => "正在加载您的 HIT…",
        Text::HomeFinished => "已完成",
        Text::HomeNotStarted => "共 {total} 项，尚未开始",
        Text::HomeItemsDone => "已完成 {answered}/{total} 项",
        Text::HomeNoHits => "您没有进行中的 HIT。请从上方的评测活动中开始一个。",
        Text::HomeTaskAdequacy => "充分性",
        Text::HomeTaskFluency => "流利度",
        Text::HomeTaskSource => "充分性（原文）",
        Text::HomeTaskWordOrder => "语序",
        Text::HomeTaskRanking => "排序",
        Text::HomeTaskEsa => "错误片段",
        Text::HomeTaskMqm => "带类别的错误",
        Text::HomeTaskPairwise => "成对比较",
        Text::StatementPairwise => "哪个译文更好？",
        Text::InstructionsPairwise => "您将看到一个{source}句子及其两个{target}译文并排显示（在手机上上下排列）。请选择更好的译文：
- A：第一个译文（左侧或上方）更好；
- B：第二个译文（右侧或下方）更好；
- 差不多：两者都没有明显更好。

更好的译文用自然的{target}完整、准确地表达原文的意思。

使用键盘：按 1 选 A，按 2 选 B，按 3 选差不多（或用方向键在选项间移动）；按 Enter 继续。您不能返回之前的句对。",
        Text::HomeTaskPostEdit => "译后编辑",
        Text::StatementPostEdit => "请修改译文，使其用自然的{target}表达原文的意思。",
        Text::InstructionsPostEdit => "您将看到一个{source}句子及其{target}机器译文（在文本框中）。请修改译文：
- 只改错误之处：意思、漏译或多译、语法、拼写、标点；
- 正确的地方请保留，即使您会换一种说法；
- 如果译文无需修改，请按“无需修改”。

如果文本框为空，请自己翻译该句子。

使用键盘：按 Tab 进入文本框；Ctrl+Enter（或 Cmd+Enter）继续。您不能返回之前的句子。",
        Text::HomeTaskContrastive => "对比错误片段",
        Text::StatementContrastive => "标出每个译文中的每个错误（选中后选择轻微或严重），然后为每个译文保留了多少原意打分。",
        Text::InstructionsContrastive => "您会看到一个{source}句子及其两到四个{target}译文并排显示（在手机上一次显示一个：上方的“译文 1”“译文 2”……按钮用于切换；句子始终显示在顶部）。

对每个译文：
- 标出它的错误：选中错误的词（拖动选中，或先点第一个词再点最后一个词），然后选择轻微或严重；如果句子有内容缺失，请标记 [MISSING]；
- 然后给它打分，从 0（完全没有保留原意）到 100（完美译文）。

请把译文相互比较：更好的译文应得到更高的分数。打了低分却没有标出错误时需要确认。

使用键盘：Tab 在译文、其中的词和滑块之间移动；方向键移动滑块。您无法返回之前的句子。",
        Text::SignOut => "退出登录",
    }
}
