//! The synchronous work between the fake I/O steps of one doxbee "upload" request
//! (workloads.md §1, docs/PROTOCOL.md), shared by the Rust contestants so that each one
//! only says how it waits. The values live across the waits, as they do in the original's
//! closures, so a task carries them in its state.

use std::time::SystemTime;

/// State of one upload: the blob, the transaction, and what later steps build.
#[derive(Debug, Clone)]
pub struct Upload {
    pub request: u64,
    pub blob: String,
    pub tx: u64,
}

/// The version record of step 4.
#[derive(Debug, Clone)]
pub struct Version {
    pub user_id: u64,
    pub created: SystemTime,
    pub blob_id: u64,
    pub creator: String,
    pub previous_id: Option<u64>,
    pub hash: &'static str,
}

impl Upload {
    /// Step 1: create the blob and begin the transaction.
    pub fn begin(request: u64) -> Upload {
        Upload {
            request,
            blob: format!("blob-{request}"),
            tx: request,
        }
    }

    /// Step 4: the version record (the lookup of step 3 found no file).
    pub fn version(&self) -> Version {
        Version {
            user_id: self.request,
            created: SystemTime::now(),
            blob_id: self.request,
            creator: format!("user-{}", self.request),
            previous_id: None,
            hash: "hash",
        }
    }

    /// Step 6: the file name (last path segment) and uuid of the "create file" query.
    pub fn file_query(&self) -> (String, String) {
        let path = format!("/files/{}/upload.bin", self.request);
        let name = path.rsplit('/').next().unwrap_or_default().to_string();
        (name, format!("{:032x}", self.request))
    }
}
