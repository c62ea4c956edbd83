//! The names of the default MQM taxonomy's categories (`protocol::mqm::DEFAULT_TAXONOMY`) in the
//! interface languages, for the MQM screen's category list and marked errors. A category keeps
//! its English name as its value (what is stored and exported); only its label is translated.
//! Categories an organizer wrote stay as written.

use super::Lang;

/// Each part of the default taxonomy's category names (`Parent/Child`: a parent or a child;
/// `Non-translation` without its `!`), in English.
pub const PARTS: [&str; 27] = [
        "Accuracy",
        "Addition",
        "Omission",
        "Mistranslation",
        "Untranslated text",
        "Fluency",
        "Punctuation",
        "Spelling",
        "Grammar",
        "Register",
        "Inconsistency",
        "Character encoding",
        "Terminology",
        "Inappropriate for context",
        "Inconsistent use of terminology",
        "Style",
        "Awkward",
        "Locale convention",
        "Address format",
        "Currency format",
        "Date format",
        "Name format",
        "Telephone format",
        "Time format",
        "Other",
        "Non-translation",
        "Source issue",
    ];

/// [`PARTS`] in each language but English, in the same order.
const DE: [&str; 27] = [
        "Genauigkeit",
        "Hinzufügung",
        "Auslassung",
        "Falschübersetzung",
        "Unübersetzter Text",
        "Sprachfluss",
        "Zeichensetzung",
        "Rechtschreibung",
        "Grammatik",
        "Stilebene",
        "Inkonsistenz",
        "Zeichenkodierung",
        "Terminologie",
        "Unpassend im Kontext",
        "Uneinheitliche Terminologie",
        "Stil",
        "Holprig",
        "Lokale Konventionen",
        "Adressformat",
        "Währungsformat",
        "Datumsformat",
        "Namensformat",
        "Telefonnummernformat",
        "Uhrzeitformat",
        "Sonstiges",
        "Keine Übersetzung",
        "Problem im Ausgangstext",
    ];
const CS: [&str; 27] = [
        "Přesnost",
        "Přidání",
        "Vynechání",
        "Chybný překlad",
        "Nepřeložený text",
        "Plynulost",
        "Interpunkce",
        "Pravopis",
        "Gramatika",
        "Rejstřík",
        "Nekonzistence",
        "Kódování znaků",
        "Terminologie",
        "Nevhodná v kontextu",
        "Nejednotná terminologie",
        "Styl",
        "Neobratnost",
        "Místní konvence",
        "Formát adresy",
        "Formát měny",
        "Formát data",
        "Formát jména",
        "Formát telefonního čísla",
        "Formát času",
        "Jiné",
        "Nejde o překlad",
        "Problém ve výchozím textu",
    ];
const ZH: [&str; 27] = [
        "准确性",
        "增译",
        "遗漏",
        "误译",
        "未翻译文本",
        "流畅性",
        "标点",
        "拼写",
        "语法",
        "语域",
        "不一致",
        "字符编码",
        "术语",
        "不符合上下文",
        "术语使用不一致",
        "风格",
        "别扭",
        "区域惯例",
        "地址格式",
        "货币格式",
        "日期格式",
        "姓名格式",
        "电话号码格式",
        "时间格式",
        "其他",
        "非翻译",
        "原文问题",
    ];
const JA: [&str; 27] = [
        "正確さ",
        "付加",
        "訳抜け",
        "誤訳",
        "未翻訳のテキスト",
        "流暢さ",
        "句読点",
        "表記",
        "文法",
        "文体の調子",
        "不統一",
        "文字コード",
        "用語",
        "文脈に不適切",
        "用語の不統一",
        "スタイル",
        "不自然",
        "ロケールの慣習",
        "住所の書式",
        "通貨の書式",
        "日付の書式",
        "名前の書式",
        "電話番号の書式",
        "時刻の書式",
        "その他",
        "非翻訳",
        "原文の問題",
    ];
const AR: [&str; 27] = [
        "الدقة",
        "إضافة",
        "حذف",
        "ترجمة خاطئة",
        "نص غير مترجم",
        "السلاسة",
        "علامات الترقيم",
        "الإملاء",
        "القواعد",
        "مستوى اللغة",
        "عدم الاتساق",
        "ترميز الأحرف",
        "المصطلحات",
        "غير مناسب للسياق",
        "استخدام غير متسق للمصطلحات",
        "الأسلوب",
        "ركاكة",
        "الأعراف المحلية",
        "تنسيق العنوان",
        "تنسيق العملة",
        "تنسيق التاريخ",
        "تنسيق الاسم",
        "تنسيق رقم الهاتف",
        "تنسيق الوقت",
        "أخرى",
        "ليست ترجمة",
        "مشكلة في النص المصدر",
    ];
const HI: [&str; 27] = [
        "सटीकता",
        "जोड़ा गया अंश",
        "छूटा हुआ अंश",
        "गलत अनुवाद",
        "बिना अनुवाद का पाठ",
        "प्रवाह",
        "विराम चिह्न",
        "वर्तनी",
        "व्याकरण",
        "भाषा-स्तर",
        "असंगति",
        "अक्षर एन्कोडिंग",
        "शब्दावली",
        "संदर्भ के अनुपयुक्त",
        "शब्दावली का असंगत प्रयोग",
        "शैली",
        "अटपटापन",
        "स्थानीय परिपाटी",
        "पते का प्रारूप",
        "मुद्रा का प्रारूप",
        "तारीख़ का प्रारूप",
        "नाम का प्रारूप",
        "टेलीफ़ोन नंबर का प्रारूप",
        "समय का प्रारूप",
        "अन्य",
        "अनुवाद नहीं",
        "स्रोत में समस्या",
    ];

/// Every part's name in `lang`, in the order of [`PARTS`].
pub fn parts(lang: Lang) -> &'static [&'static str; 27] {
    match lang {
        Lang::En => &PARTS,
        Lang::De => &DE,
        Lang::Cs => &CS,
        Lang::Zh => &ZH,
        Lang::Ja => &JA,
        Lang::Ar => &AR,
        Lang::Hi => &HI,
    }
}

/// One part of a category name (a parent or a child, matched without regard to case) in
/// `lang`; `None` for a name the default taxonomy does not have.
pub fn part(lang: Lang, english: &str) -> Option<&'static str> {
    let english = english.trim();
    PARTS.iter().position(|p| p.eq_ignore_ascii_case(english)).map(|i| parts(lang)[i])
}

/// A category's label in `lang`, `Parent/Child` as the taxonomy writes it (a trailing `!`,
/// the non-translation marker, dropped): each part the default taxonomy has is translated, any
/// other kept as written.
pub fn label(lang: Lang, category: &str) -> String {
    category
        .trim_end_matches('!')
        .split('/')
        .map(|p| part(lang, p).map_or_else(|| p.to_string(), str::to_string))
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::mqm::DEFAULT_TAXONOMY;

    #[test]
    fn every_part_of_the_default_taxonomy_has_a_name_in_every_language() {
        for line in DEFAULT_TAXONOMY.lines().filter(|l| !l.trim().is_empty()) {
            for p in line.trim_end_matches('!').split('/') {
                for lang in Lang::ALL {
                    assert!(part(lang, p).is_some(), "{p:?} in {lang:?}");
                }
            }
        }
        for lang in Lang::ALL {
            let names = parts(lang);
            let distinct: std::collections::HashSet<_> = names.iter().collect();
            assert_eq!(distinct.len(), names.len(), "{lang:?}: two parts with one name");
        }
    }

    #[test]
    fn labels_translate_the_default_parts_and_keep_the_organizers() {
        assert_eq!(label(Lang::De, "Accuracy/Omission"), "Genauigkeit/Auslassung");
        assert_eq!(label(Lang::Ja, "Non-translation!"), "非翻訳");
        assert_eq!(label(Lang::En, "Non-translation!"), "Non-translation");
        assert_eq!(label(Lang::De, "Accuracy/Wrong unit"), "Genauigkeit/Wrong unit");
        assert_eq!(label(Lang::Ar, "Terminologie maison"), "Terminologie maison");
    }
}
