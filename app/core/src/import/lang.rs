//! Language codes: validation, normalisation and the script properties the annotation screen and
//! the degraders need (right-to-left rendering, scripts written without spaces between words).
//!
//! Accepted: every ISO 639-1 two-letter code, the ISO 639-3 three-letter code of each of those
//! languages (`deu`, `ces`, `zho`, … as used by Appraise and WMT24), and a list of ISO 639-3 codes
//! for languages without a two-letter code that appear in WMT and related shared tasks (`hsb`,
//! `liv`, `sah`, `yue`, …). A code may carry subtags after `-` or `_`: a script (four letters,
//! `zh-Hant`), a region (two letters or three digits, `pt-BR`, `es-419`), or both (`zh-Hant-TW`).
//! A three-letter code with a two-letter equivalent is normalised to the two-letter form
//! (`deu` → `de`) so that one language has one spelling; `iso639_3()` gives the long form back.

use std::fmt;

/// Which way a language's text runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TextDirection {
    /// Left to right.
    Ltr,
    /// Right to left (Arabic, Hebrew, Persian, Urdu, …).
    Rtl,
}

/// A validated, normalised language code such as `en`, `pt-BR`, `zh-Hant`, `hsb`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LangCode {
    /// Primary language subtag, lower case, two letters when ISO 639-1 has one.
    primary: String,
    /// Script subtag in title case (`Hant`), if any.
    script: Option<String>,
    /// Region subtag in upper case (`BR`) or three digits, if any.
    region: Option<String>,
}

/// Why a string is not an accepted language code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LangCodeError(pub String);

impl fmt::Display for LangCodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl LangCode {
    /// The language of an English name as WMT's ranking files write it (`French`, `czech`).
    pub fn from_english_name(name: &str) -> Option<LangCode> {
        let name = name.trim();
        let entry = LANGUAGES.iter().find(|e| e.2.eq_ignore_ascii_case(name))?;
        LangCode::parse(if entry.0.is_empty() { entry.1 } else { entry.0 }).ok()
    }

    /// Parses and normalises a code (`DE`, `deu`, `pt_br`, `zh-hant` → `de`, `de`, `pt-BR`, `zh-Hant`).
    pub fn parse(input: &str) -> Result<LangCode, LangCodeError> {
        let s = input.trim();
        if s.is_empty() {
            return Err(LangCodeError("empty language code".into()));
        }
        let mut parts = s.split(['-', '_']);
        let first = parts.next().unwrap_or("").to_ascii_lowercase();
        let Some(entry) = lookup(&first) else {
            return Err(LangCodeError(format!(
                "unknown language code `{s}` (expected an ISO 639-1 code such as `de` or an ISO 639-3 code such as `deu`, optionally with a script or region such as `zh-Hant` or `pt-BR`)"
            )));
        };
        let primary = if entry.0.is_empty() { entry.1 } else { entry.0 };
        let mut script = None;
        let mut region = None;
        for part in parts {
            if part.len() == 4
                && part.chars().all(|c| c.is_ascii_alphabetic())
                && script.is_none()
                && region.is_none()
            {
                let mut t = part.to_ascii_lowercase();
                t[..1].make_ascii_uppercase();
                script = Some(t);
            } else if region.is_none()
                && ((part.len() == 2 && part.chars().all(|c| c.is_ascii_alphabetic()))
                    || (part.len() == 3 && part.chars().all(|c| c.is_ascii_digit())))
            {
                region = Some(part.to_ascii_uppercase());
            } else {
                return Err(LangCodeError(format!(
                    "language code `{s}` has an invalid subtag `{part}` (expected a four-letter script such as `Hant` or a region such as `BR` or `419`)"
                )));
            }
        }
        Ok(LangCode {
            primary: primary.to_string(),
            script,
            region,
        })
    }

    /// The primary language subtag (`zh` for `zh-Hant`).
    pub fn primary(&self) -> &str {
        &self.primary
    }

    /// The script subtag, if any (`Hant`).
    pub fn script(&self) -> Option<&str> {
        self.script.as_deref()
    }

    /// The region subtag, if any (`BR`).
    pub fn region(&self) -> Option<&str> {
        self.region.as_deref()
    }

    /// The ISO 639-3 code of the primary language (`de` → `deu`), as WMT24 exports use.
    pub fn iso639_3(&self) -> &'static str {
        lookup(&self.primary).map(|e| e.1).unwrap_or("und")
    }

    /// The English name of the primary language (`de` → `German`).
    pub fn english_name(&self) -> &'static str {
        lookup(&self.primary).map(|e| e.2).unwrap_or("Unknown")
    }

    /// Which way text in this language runs; an explicit script subtag decides over the language.
    pub fn direction(&self) -> TextDirection {
        if let Some(script) = &self.script {
            return if RTL_SCRIPTS.contains(&script.as_str()) {
                TextDirection::Rtl
            } else {
                TextDirection::Ltr
            };
        }
        if RTL_LANGUAGES.contains(&self.primary.as_str()) {
            TextDirection::Rtl
        } else {
            TextDirection::Ltr
        }
    }

    /// True for right-to-left text (`ar`, `he`, `fa`, `ur`, `az-Arab`, …).
    pub fn is_rtl(&self) -> bool {
        self.direction() == TextDirection::Rtl
    }

    /// True when words are normally separated by spaces; false for `zh`, `ja`, `th`, `lo`, `km`,
    /// `my`, `bo`, … whose text must be tokenized by characters/graphemes.
    pub fn uses_spaces(&self) -> bool {
        if let Some(script) = &self.script {
            return !UNSPACED_SCRIPTS.contains(&script.as_str());
        }
        !UNSPACED_LANGUAGES.contains(&self.primary.as_str())
    }
}

impl fmt::Display for LangCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.primary)?;
        if let Some(s) = &self.script {
            write!(f, "-{s}")?;
        }
        if let Some(r) = &self.region {
            write!(f, "-{r}")?;
        }
        Ok(())
    }
}

impl serde::Serialize for LangCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for LangCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        LangCode::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// A source and a target language.
#[derive(
    Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct LanguagePair {
    pub source: LangCode,
    pub target: LangCode,
}

impl LanguagePair {
    /// Parses `SRC-TGT` as used in WMT file names (`en-de`, `en-zh-Hant`, `en-cs_CZ`, `eng-deu`).
    /// Subtags may be joined with `_` or `-`; a split that is not unique is an error.
    pub fn parse(input: &str) -> Result<LanguagePair, LangCodeError> {
        let s = input.trim();
        let dashes: Vec<usize> = s.match_indices('-').map(|(i, _)| i).collect();
        if dashes.is_empty() {
            return Err(LangCodeError(format!(
                "`{s}` is not a language pair (expected SRC-TGT such as `en-de`)"
            )));
        }
        let mut found: Vec<LanguagePair> = Vec::new();
        let mut last_err = None;
        for &i in &dashes {
            match (LangCode::parse(&s[..i]), LangCode::parse(&s[i + 1..])) {
                (Ok(source), Ok(target)) => found.push(LanguagePair { source, target }),
                (Err(e), _) | (_, Err(e)) => last_err = Some(e),
            }
        }
        match found.len() {
            1 => Ok(found.remove(0)),
            0 => {
                Err(last_err
                    .unwrap_or_else(|| LangCodeError(format!("`{s}` is not a language pair"))))
            }
            _ => Err(LangCodeError(format!(
                "language pair `{s}` is ambiguous (it splits as {}); join subtags with `_`, e.g. `en-zh_Hant`",
                found
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ))),
        }
    }
}

impl fmt::Display for LanguagePair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.source, self.target)
    }
}

fn lookup(code: &str) -> Option<&'static (&'static str, &'static str, &'static str)> {
    match code.len() {
        2 => LANGUAGES.iter().find(|e| e.0 == code),
        3 => LANGUAGES.iter().find(|e| e.1 == code),
        _ => None,
    }
}

/// Languages written right to left by default (primary subtags after normalisation).
const RTL_LANGUAGES: &[&str] = &[
    "ar", "he", "fa", "ur", "yi", "ps", "sd", "ug", "dv", "ks", "ckb", "arz", "ary", "apc", "acm",
    "ajp", "ars", "pes", "prs", "pbt", "azb", "syr",
];

/// Script subtags written right to left.
const RTL_SCRIPTS: &[&str] = &[
    "Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Mand", "Samr", "Rohg",
];

/// Languages whose usual script does not separate words with spaces.
const UNSPACED_LANGUAGES: &[&str] = &[
    "zh", "ja", "th", "lo", "km", "my", "bo", "dz", "yue", "cmn", "wuu", "lzh", "shn",
];

/// Script subtags that do not separate words with spaces.
const UNSPACED_SCRIPTS: &[&str] = &[
    "Hans", "Hant", "Hani", "Jpan", "Hira", "Kana", "Thai", "Laoo", "Khmr", "Mymr", "Tibt",
];

// (ISO 639-1, ISO 639-3, English name); generated from the iso-codes package's ISO 639-3 table.
const LANGUAGES: &[(&str, &str, &str)] = &[
    ("aa", "aar", "Afar"),
    ("ab", "abk", "Abkhazian"),
    ("af", "afr", "Afrikaans"),
    ("ak", "aka", "Akan"),
    ("am", "amh", "Amharic"),
    ("ar", "ara", "Arabic"),
    ("an", "arg", "Aragonese"),
    ("as", "asm", "Assamese"),
    ("av", "ava", "Avaric"),
    ("ae", "ave", "Avestan"),
    ("ay", "aym", "Aymara"),
    ("az", "aze", "Azerbaijani"),
    ("ba", "bak", "Bashkir"),
    ("bm", "bam", "Bambara"),
    ("be", "bel", "Belarusian"),
    ("bn", "ben", "Bengali"),
    ("bi", "bis", "Bislama"),
    ("bo", "bod", "Tibetan"),
    ("bs", "bos", "Bosnian"),
    ("br", "bre", "Breton"),
    ("bg", "bul", "Bulgarian"),
    ("ca", "cat", "Catalan"),
    ("cs", "ces", "Czech"),
    ("ch", "cha", "Chamorro"),
    ("ce", "che", "Chechen"),
    ("cu", "chu", "Church Slavic"),
    ("cv", "chv", "Chuvash"),
    ("kw", "cor", "Cornish"),
    ("co", "cos", "Corsican"),
    ("cr", "cre", "Cree"),
    ("cy", "cym", "Welsh"),
    ("da", "dan", "Danish"),
    ("de", "deu", "German"),
    ("dv", "div", "Dhivehi"),
    ("dz", "dzo", "Dzongkha"),
    ("el", "ell", "Modern Greek (1453-)"),
    ("en", "eng", "English"),
    ("eo", "epo", "Esperanto"),
    ("et", "est", "Estonian"),
    ("eu", "eus", "Basque"),
    ("ee", "ewe", "Ewe"),
    ("fo", "fao", "Faroese"),
    ("fa", "fas", "Persian"),
    ("fj", "fij", "Fijian"),
    ("fi", "fin", "Finnish"),
    ("fr", "fra", "French"),
    ("fy", "fry", "Western Frisian"),
    ("ff", "ful", "Fulah"),
    ("gd", "gla", "Scottish Gaelic"),
    ("ga", "gle", "Irish"),
    ("gl", "glg", "Galician"),
    ("gv", "glv", "Manx"),
    ("gn", "grn", "Guarani"),
    ("gu", "guj", "Gujarati"),
    ("ht", "hat", "Haitian"),
    ("ha", "hau", "Hausa"),
    ("sh", "hbs", "Serbo-Croatian"),
    ("he", "heb", "Hebrew"),
    ("hz", "her", "Herero"),
    ("hi", "hin", "Hindi"),
    ("ho", "hmo", "Hiri Motu"),
    ("hr", "hrv", "Croatian"),
    ("hu", "hun", "Hungarian"),
    ("hy", "hye", "Armenian"),
    ("ig", "ibo", "Igbo"),
    ("io", "ido", "Ido"),
    ("ii", "iii", "Sichuan Yi"),
    ("iu", "iku", "Inuktitut"),
    ("ie", "ile", "Interlingue"),
    (
        "ia",
        "ina",
        "Interlingua (International Auxiliary Language Association)",
    ),
    ("id", "ind", "Indonesian"),
    ("ik", "ipk", "Inupiaq"),
    ("is", "isl", "Icelandic"),
    ("it", "ita", "Italian"),
    ("jv", "jav", "Javanese"),
    ("ja", "jpn", "Japanese"),
    ("kl", "kal", "Kalaallisut"),
    ("kn", "kan", "Kannada"),
    ("ks", "kas", "Kashmiri"),
    ("ka", "kat", "Georgian"),
    ("kr", "kau", "Kanuri"),
    ("kk", "kaz", "Kazakh"),
    ("km", "khm", "Khmer"),
    ("ki", "kik", "Kikuyu"),
    ("rw", "kin", "Kinyarwanda"),
    ("ky", "kir", "Kirghiz"),
    ("kv", "kom", "Komi"),
    ("kg", "kon", "Kongo"),
    ("ko", "kor", "Korean"),
    ("kj", "kua", "Kuanyama"),
    ("ku", "kur", "Kurdish"),
    ("lo", "lao", "Lao"),
    ("la", "lat", "Latin"),
    ("lv", "lav", "Latvian"),
    ("li", "lim", "Limburgan"),
    ("ln", "lin", "Lingala"),
    ("lt", "lit", "Lithuanian"),
    ("lb", "ltz", "Luxembourgish"),
    ("lu", "lub", "Luba-Katanga"),
    ("lg", "lug", "Ganda"),
    ("mh", "mah", "Marshallese"),
    ("ml", "mal", "Malayalam"),
    ("mr", "mar", "Marathi"),
    ("mk", "mkd", "Macedonian"),
    ("mg", "mlg", "Malagasy"),
    ("mt", "mlt", "Maltese"),
    ("mn", "mon", "Mongolian"),
    ("mi", "mri", "Maori"),
    ("ms", "msa", "Malay (macrolanguage)"),
    ("my", "mya", "Burmese"),
    ("na", "nau", "Nauru"),
    ("nv", "nav", "Navajo"),
    ("nr", "nbl", "South Ndebele"),
    ("nd", "nde", "North Ndebele"),
    ("ng", "ndo", "Ndonga"),
    ("ne", "nep", "Nepali (macrolanguage)"),
    ("nl", "nld", "Dutch"),
    ("nn", "nno", "Norwegian Nynorsk"),
    ("nb", "nob", "Norwegian Bokmål"),
    ("no", "nor", "Norwegian"),
    ("ny", "nya", "Nyanja"),
    ("oc", "oci", "Occitan (post 1500)"),
    ("oj", "oji", "Ojibwa"),
    ("or", "ori", "Oriya (macrolanguage)"),
    ("om", "orm", "Oromo"),
    ("os", "oss", "Ossetian"),
    ("pa", "pan", "Panjabi"),
    ("pi", "pli", "Pali"),
    ("pl", "pol", "Polish"),
    ("pt", "por", "Portuguese"),
    ("ps", "pus", "Pushto"),
    ("qu", "que", "Quechua"),
    ("rm", "roh", "Romansh"),
    ("ro", "ron", "Romanian"),
    ("rn", "run", "Rundi"),
    ("ru", "rus", "Russian"),
    ("sg", "sag", "Sango"),
    ("sa", "san", "Sanskrit"),
    ("si", "sin", "Sinhala"),
    ("sk", "slk", "Slovak"),
    ("sl", "slv", "Slovenian"),
    ("se", "sme", "Northern Sami"),
    ("sm", "smo", "Samoan"),
    ("sn", "sna", "Shona"),
    ("sd", "snd", "Sindhi"),
    ("so", "som", "Somali"),
    ("st", "sot", "Southern Sotho"),
    ("es", "spa", "Spanish"),
    ("sq", "sqi", "Albanian"),
    ("sc", "srd", "Sardinian"),
    ("sr", "srp", "Serbian"),
    ("ss", "ssw", "Swati"),
    ("su", "sun", "Sundanese"),
    ("sw", "swa", "Swahili (macrolanguage)"),
    ("sv", "swe", "Swedish"),
    ("ty", "tah", "Tahitian"),
    ("ta", "tam", "Tamil"),
    ("tt", "tat", "Tatar"),
    ("te", "tel", "Telugu"),
    ("tg", "tgk", "Tajik"),
    ("tl", "tgl", "Tagalog"),
    ("th", "tha", "Thai"),
    ("ti", "tir", "Tigrinya"),
    ("to", "ton", "Tonga (Tonga Islands)"),
    ("tn", "tsn", "Tswana"),
    ("ts", "tso", "Tsonga"),
    ("tk", "tuk", "Turkmen"),
    ("tr", "tur", "Turkish"),
    ("tw", "twi", "Twi"),
    ("ug", "uig", "Uighur"),
    ("uk", "ukr", "Ukrainian"),
    ("ur", "urd", "Urdu"),
    ("uz", "uzb", "Uzbek"),
    ("ve", "ven", "Venda"),
    ("vi", "vie", "Vietnamese"),
    ("vo", "vol", "Volapük"),
    ("wa", "wln", "Walloon"),
    ("wo", "wol", "Wolof"),
    ("xh", "xho", "Xhosa"),
    ("yi", "yid", "Yiddish"),
    ("yo", "yor", "Yoruba"),
    ("za", "zha", "Zhuang"),
    ("zh", "zho", "Chinese"),
    ("zu", "zul", "Zulu"),
    ("", "hsb", "Upper Sorbian"),
    ("", "dsb", "Lower Sorbian"),
    ("", "liv", "Liv"),
    ("", "sah", "Yakut"),
    ("", "mni", "Manipuri"),
    ("", "brx", "Bodo (India)"),
    ("", "sat", "Santali"),
    ("", "gom", "Goan Konkani"),
    ("", "kok", "Konkani (macrolanguage)"),
    ("", "mai", "Maithili"),
    ("", "doi", "Dogri (macrolanguage)"),
    ("", "bho", "Bhojpuri"),
    ("", "mag", "Magahi"),
    ("", "hne", "Chhattisgarhi"),
    ("", "awa", "Awadhi"),
    ("", "yue", "Yue Chinese"),
    ("", "cmn", "Mandarin Chinese"),
    ("", "wuu", "Wu Chinese"),
    ("", "arz", "Egyptian Arabic"),
    ("", "ary", "Moroccan Arabic"),
    ("", "apc", "North Levantine Arabic"),
    ("", "acm", "Mesopotamian Arabic"),
    ("", "ajp", "South Levantine Arabic"),
    ("", "ars", "Najdi Arabic"),
    ("", "kab", "Kabyle"),
    ("", "fil", "Filipino"),
    ("", "ast", "Asturian"),
    ("", "ckb", "Central Kurdish"),
    ("", "kmr", "Northern Kurdish"),
    ("", "pes", "Iranian Persian"),
    ("", "prs", "Dari"),
    ("", "pbt", "Southern Pashto"),
    ("", "azb", "South Azerbaijani"),
    ("", "nso", "Pedi"),
    ("", "fur", "Friulian"),
    ("", "lij", "Ligurian"),
    ("", "lmo", "Lombard"),
    ("", "scn", "Sicilian"),
    ("", "vec", "Venetian"),
    ("", "szl", "Silesian"),
    ("", "ltg", "Latgalian"),
    ("", "mhr", "Eastern Mari"),
    ("", "myv", "Erzya"),
    ("", "udm", "Udmurt"),
    ("", "krl", "Karelian"),
    ("", "vep", "Veps"),
    ("", "vro", "Võro"),
    ("", "smn", "Inari Sami"),
    ("", "sms", "Skolt Sami"),
    ("", "sma", "Southern Sami"),
    ("", "smj", "Lule Sami"),
    ("", "quz", "Cusco Quechua"),
    ("", "ayr", "Central Aymara"),
    ("", "lus", "Lushai"),
    ("", "npi", "Nepali (individual language)"),
    ("", "zsm", "Standard Malay"),
    ("", "ory", "Odia"),
    ("", "khk", "Halh Mongolian"),
    ("", "lvs", "Standard Latvian"),
    ("", "ekk", "Standard Estonian"),
    ("", "uzn", "Northern Uzbek"),
    ("", "gaz", "West Central Oromo"),
    ("", "plt", "Plateau Malagasy"),
    ("", "swh", "Swahili (individual language)"),
    ("", "tzm", "Central Atlas Tamazight"),
    ("", "ace", "Achinese"),
    ("", "ban", "Balinese"),
    ("", "bug", "Buginese"),
    ("", "min", "Minangkabau"),
    ("", "pag", "Pangasinan"),
    ("", "war", "Waray (Philippines)"),
    ("", "ceb", "Cebuano"),
    ("", "hil", "Hiligaynon"),
    ("", "ilo", "Iloko"),
    ("", "crh", "Crimean Tatar"),
    ("", "kaa", "Kara-Kalpak"),
    ("", "kbd", "Kabardian"),
    ("", "ady", "Adyghe"),
    ("", "lez", "Lezghian"),
    ("", "tyv", "Tuvinian"),
    ("", "alt", "Southern Altai"),
    ("", "xal", "Kalmyk"),
    ("", "bua", "Buriat"),
    ("", "mrj", "Western Mari"),
    ("", "koi", "Komi-Permyak"),
    ("", "kpv", "Komi-Zyrian"),
    ("", "gsw", "Swiss German"),
    ("", "nds", "Low German"),
    ("", "frr", "Northern Frisian"),
    ("", "frs", "Eastern Frisian"),
    ("", "sjd", "Kildin Sami"),
    ("", "yrk", "Nenets"),
    ("", "evn", "Evenki"),
    ("", "nog", "Nogai"),
    ("", "kum", "Kumyk"),
    ("", "inh", "Ingush"),
    ("", "dar", "Dargwa"),
    ("", "lbe", "Lak"),
    ("", "tab", "Tabassaran"),
    ("", "rut", "Rutul"),
    ("", "agx", "Aghul"),
    ("", "kjh", "Khakas"),
    ("", "haw", "Hawaiian"),
    ("", "tpi", "Tok Pisin"),
    ("", "pap", "Papiamento"),
    ("", "srn", "Sranan Tongo"),
    ("", "jam", "Jamaican Creole English"),
    ("", "luo", "Luo (Kenya and Tanzania)"),
    ("", "kam", "Kamba (Kenya)"),
    ("", "mer", "Meru"),
    ("", "guz", "Gusii"),
    ("", "swc", "Congo Swahili"),
    ("", "lua", "Luba-Lulua"),
    ("", "tum", "Tumbuka"),
    ("", "bem", "Bemba (Zambia)"),
    ("", "loz", "Lozi"),
    ("", "fon", "Fon"),
    ("", "gaa", "Ga"),
    ("", "dag", "Dagbani"),
    ("", "mos", "Mossi"),
    ("", "dyu", "Dyula"),
    ("", "fuv", "Nigerian Fulfulde"),
    ("", "pcm", "Nigerian Pidgin"),
    ("", "efi", "Efik"),
    ("", "ibb", "Ibibio"),
    ("", "tiv", "Tiv"),
    ("", "knc", "Central Kanuri"),
    ("", "sid", "Sidamo"),
    ("", "wal", "Wolaytta"),
    ("", "gez", "Geez"),
    ("", "tig", "Tigre"),
    ("", "syr", "Syriac"),
    ("", "lad", "Ladino"),
    ("", "lzh", "Literary Chinese"),
    ("", "shn", "Shan"),
    ("", "kac", "Kachin"),
    ("", "zgh", "Standard Moroccan Tamazight"),
    ("", "rif", "Tarifit"),
    ("", "shi", "Tachelhit"),
];
