//! Each `taskbench bisect` in the store: its bisect.json kept whole, by its folder, so that
//! a reader of the store alone (`taskbench site`) has the answer and the search; the
//! releases' figures are in the sessions of its steps, which the store holds already (each
//! step is a run, recorded as every run is, its folder inside the bisect's).

use super::Store;

/// A bisect as the store keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredBisect {
    pub id: i64,
    pub started: String,
    /// Its folder: each step's session has a folder inside it.
    pub folder: String,
    /// Its bisect.json.
    pub record: serde_json::Value,
}

/// Keeps the bisect of `folder`, replacing one kept of the same folder.
pub fn record_bisect(
    store: &mut Store,
    started: &str,
    folder: &str,
    record: &serde_json::Value,
) -> anyhow::Result<()> {
    let text = serde_json::to_string(record)?;
    store.write(|store| {
        store.execute("DELETE FROM bisects WHERE folder = ?", &[folder.into()])?;
        store.execute(
            "INSERT INTO bisects (started, folder, record) VALUES (?, ?, ?)",
            &[started.into(), folder.into(), text.as_str().into()],
        )
    })
}

/// Every bisect kept, oldest first.
pub fn bisects(store: &mut Store) -> anyhow::Result<Vec<StoredBisect>> {
    let mut found = Vec::new();
    for row in store.query("SELECT id, started, folder, record FROM bisects", &[])? {
        found.push(StoredBisect {
            id: row.get(0)?,
            started: row.get(1)?,
            folder: row.get(2)?,
            record: serde_json::from_str(&row.get::<String>(3)?)?,
        });
    }
    found.sort_by(|a, b| (&a.started, a.id).cmp(&(&b.started, b.id)));
    Ok(found)
}
