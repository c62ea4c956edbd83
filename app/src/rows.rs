//! [`row!`](crate::rows::row): a struct and its `sqlx::FromRow` for the database's rows.
//!
//! sqlx's `#[derive(FromRow)]` would do the same, but the derive brings `sqlx-macros`, which
//! sqlx builds with every database driver it has (for its `query!` macros, which Assay does not
//! use): a second copy of sqlx, tokio and the SQLite C library compiled for the compiler itself,
//! about 48 s of a core on every fresh build (BENCHMARKS.md, "First start").

/// `row! { struct Name { … } }` defines the struct as written and, on the server, its
/// `sqlx::FromRow` for `AnyRow`: each field is read from the column of its name, except
/// - `field: T as S`: read as an `S`, then converted with `T::try_from` (a failure is sqlx's
///   `ColumnDecode` error naming the column);
/// - `field: T = expr`: not a column; set to `expr`.
macro_rules! row {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$field_meta:meta])*
                $field_vis:vis $field:ident : $ty:ty $(as $source:ty)? $(= $default:expr)?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[$field_meta])* $field_vis $field: $ty, )*
        }

        #[cfg(feature = "ssr")]
        impl<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> for $name {
            fn from_row(row: &'r sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
                Ok(Self {
                    $( $field: $crate::rows::column!(row, $field, $ty $(, as $source)? $(, = $default)?), )*
                })
            }
        }
    };
}

/// One field of [`row!`] (the server's side of it).
#[cfg_attr(not(feature = "ssr"), allow(unused_macros))]
macro_rules! column {
    ($row:ident, $field:ident, $ty:ty) => {
        sqlx::Row::try_get::<$ty, _>($row, stringify!($field))?
    };
    ($row:ident, $field:ident, $ty:ty, as $source:ty) => {
        <$ty as ::std::convert::TryFrom<$source>>::try_from(sqlx::Row::try_get::<$source, _>($row, stringify!($field))?)
            .map_err(|e| sqlx::Error::ColumnDecode { index: stringify!($field).into(), source: e.into() })?
    };
    ($row:ident, $field:ident, $ty:ty, = $default:expr) => {
        $default
    };
}

#[cfg(feature = "ssr")]
pub(crate) use column;
pub(crate) use row;

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use sqlx::any::AnyRow;

    #[derive(Debug, PartialEq)]
    enum Colour {
        Red,
        Blue,
    }

    #[derive(Debug, thiserror::Error)]
    #[error("no colour {0:?}")]
    struct NoColour(String);

    impl TryFrom<String> for Colour {
        type Error = NoColour;
        fn try_from(s: String) -> Result<Self, NoColour> {
            match s.as_str() {
                "red" => Ok(Colour::Red),
                "blue" => Ok(Colour::Blue),
                other => Err(NoColour(other.to_string())),
            }
        }
    }

    super::row! {
        /// A row with every kind of field.
        #[derive(Debug, PartialEq)]
        struct Thing {
            id: i64,
            /// A converted column.
            colour: Colour as String,
            note: Option<String>,
            computed: String = "not a column".to_string(),
        }
    }

    async fn read(sql: &str) -> Result<Thing, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let pool = sqlx::any::AnyPoolOptions::new().max_connections(1).connect("sqlite::memory:").await?;
        let row: AnyRow = sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).fetch_one(&pool).await?;
        sqlx::FromRow::from_row(&row)
    }

    #[tokio::test]
    async fn reads_each_kind_of_field_and_names_the_column_that_fails() {
        let thing = read("SELECT 7 AS id, 'blue' AS colour, NULL AS note").await.unwrap();
        assert_eq!(thing, Thing { id: 7, colour: Colour::Blue, note: None, computed: "not a column".into() });
        let thing = read("SELECT 8 AS id, 'red' AS colour, 'hi' AS note").await.unwrap();
        assert_eq!((thing.colour, thing.note.as_deref()), (Colour::Red, Some("hi")));
        let error = read("SELECT 9 AS id, 'green' AS colour, NULL AS note").await.unwrap_err().to_string();
        assert!(error.contains("colour") && error.contains("no colour \"green\""), "{error}");
        let error = read("SELECT 9 AS id, 'red' AS colour").await.unwrap_err().to_string();
        assert!(error.contains("note"), "{error}");
    }
}
