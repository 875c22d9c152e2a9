//! The synchronous work between the fake I/O steps of one doxbee "upload" request
//! (docs/SEEDS.md#doxbee-sequential, docs/PROTOCOL.md), shared by the Rust contestants so
//! that each one only says how it waits. The values live across the waits, as they do in
//! the original's closures, so a task carries them in its state (or on its stack, where
//! tasks block).

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

/// One whole upload request, steps 1–9 of docs/PROTOCOL.md §4: `io()` is awaited for each
/// fake I/O op (the runtime's sleep of `io-ms`) and yields 1; the sum — the ops that
/// really completed — is the request's share of the checksum. Contestants pass only how
/// they wait; [`upload_blocking`] is the same request for tasks that block.
pub async fn upload<F, Op>(request: u64, mut io: F) -> u64
where
    F: FnMut() -> Op,
    Op: std::future::Future<Output = u64>,
{
    let upload = Upload::begin(request);
    let mut done = io().await; // 2. put the blob
    done += io().await; // 3. look the file up: it does not exist
    let version = upload.version();
    done += io().await; // 5. insert the version
    let query = upload.file_query();
    done += io().await; // 6. execute the "create file" query
    done += io().await; // 7. insert the file–version link
    done += io().await; // 8. update the file's current version
    done += io().await; // 9. commit
    std::hint::black_box((&upload, &version, &query));
    done
}

/// [`upload`] for runtimes whose tasks block (OS threads, stackful coroutines): `io()`
/// blocks for each fake I/O op and returns 1, line for line as `upload` awaits it.
pub fn upload_blocking(request: u64, mut io: impl FnMut() -> u64) -> u64 {
    let upload = Upload::begin(request);
    let mut done = io(); // 2. put the blob
    done += io(); // 3. look the file up: it does not exist
    let version = upload.version();
    done += io(); // 5. insert the version
    let query = upload.file_query();
    done += io(); // 6. execute the "create file" query
    done += io(); // 7. insert the file–version link
    done += io(); // 8. update the file's current version
    done += io(); // 9. commit
    std::hint::black_box((&upload, &version, &query));
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::{Future, ready};
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    /// Polls `request` once, with a waker that does nothing: enough when no op is pending.
    fn poll_once(request: impl Future<Output = u64>) -> Poll<u64> {
        pin!(request).poll(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn both_uploads_do_seven_ios_and_return_seven() {
        let mut calls = 0;
        let done = upload_blocking(3, || {
            calls += 1;
            1
        });
        assert_eq!((done, calls), (7, 7));

        let mut calls = 0;
        let done = poll_once(upload(3, || {
            calls += 1;
            ready(1)
        }));
        assert_eq!((done, calls), (Poll::Ready(7), 7));
    }
}
