//! How a summary's [`Point`] is written in results.json: a row as `scenario`, `point` (the
//! label) and `params` side by side, a point as `point` and `scenario`, as results files
//! have always had them, so that older files read and newer ones keep their shape. In
//! memory it is one `Point`; these fields exist only here.

use catalogue::Point;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// A row's point (`#[serde(flatten, with = "written::row")]`).
pub(crate) mod row {
    use super::*;

    #[derive(Serialize)]
    struct Fields<'a> {
        scenario: &'a str,
        point: String,
        params: &'a BTreeMap<String, u64>,
    }

    /// The label is read for nothing: scenario and parameters say the point.
    #[derive(Deserialize)]
    struct Read {
        scenario: String,
        params: BTreeMap<String, u64>,
    }

    pub(crate) fn serialize<S: Serializer>(
        point: &Point,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let fields = Fields {
            scenario: &point.scenario,
            point: point.to_string(),
            params: &point.params,
        };
        fields.serialize(serializer)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Point, D::Error> {
        let read = Read::deserialize(deserializer)?;
        Ok(Point::new(&read.scenario, &read.params))
    }
}

/// A point summary's point (`#[serde(flatten, with = "written::point")]`).
pub(crate) mod point {
    use super::*;

    #[derive(Serialize)]
    struct Fields<'a> {
        point: &'a Point,
        scenario: &'a str,
    }

    /// The scenario is read for nothing: the label says the whole point.
    #[derive(Deserialize)]
    struct Read {
        point: Point,
    }

    pub(crate) fn serialize<S: Serializer>(
        point: &Point,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let scenario = &point.scenario;
        Fields { point, scenario }.serialize(serializer)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Point, D::Error> {
        Ok(Read::deserialize(deserializer)?.point)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;
    use std::path::Path;

    /// A results.json written before points were one `Point` (tests/fixtures/agree) reads,
    /// and every summary writes its point back as the file had it.
    #[test]
    fn a_saved_results_file_reads_and_writes_its_points_as_it_had_them() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../taskbench/tests/fixtures/agree/a.json");
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let points: Vec<crate::PointSummary> =
            serde_json::from_value(saved["points"].clone()).unwrap();
        let fields = |v: &Value, names: &[&str]| -> Vec<Value> {
            names.iter().map(|n| v[n].clone()).collect()
        };
        let saved_points = saved["points"].as_array().unwrap();
        assert_eq!(points.len(), saved_points.len());
        assert!(!saved_points.is_empty());
        for (point, saved) in points.iter().zip(saved_points) {
            let written = serde_json::to_value(point).unwrap();
            assert_eq!(
                fields(&written, &["point", "scenario"]),
                fields(saved, &["point", "scenario"])
            );
            for (row, saved) in point.rows.iter().zip(saved["rows"].as_array().unwrap()) {
                let written = serde_json::to_value(row).unwrap();
                let names = ["scenario", "point", "params", "contestant", "outcome"];
                assert_eq!(fields(&written, &names), fields(saved, &names));
            }
        }
    }

    /// A label that names no point is refused with the label in the message.
    #[test]
    fn a_summary_whose_point_is_unreadable_is_refused() {
        let text = r#"{"point": "spawn tasks", "scenario": "spawn", "rows": []}"#;
        let error = serde_json::from_str::<crate::PointSummary>(text).unwrap_err();
        assert!(
            error.to_string().contains("'spawn tasks' is not a point"),
            "{error}"
        );
    }
}
