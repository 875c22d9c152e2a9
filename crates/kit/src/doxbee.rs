//! The synchronous work between the fake I/O steps of one doxbee "upload" request
//! (docs/SEEDS.md#doxbee-sequential, docs/PROTOCOL.md), shared by the Rust contestants so
//! that each one only says how it waits. The values live across the waits, as they do in
//! the original's closures, so a task carries them in its state (or on its stack, where
//! tasks block). The [`Query`] of one fake I/O op is here too, for doxbee's and
//! parallel's.

use std::hint::black_box;
use std::time::SystemTime;

/// The transaction a request begins (doxbee's step 1, each parallel request): what every
/// [`Query`] of the request refers to. A contestant shares it as its runtime's tasks allow —
/// an `Arc` where they may move between threads, an `Rc` where they stay on one.
#[derive(Debug)]
#[cfg_attr(
    not(test),
    expect(
        dead_code,
        reason = "the seed's object: built and dropped as the seed builds it; its tests alone read it"
    )
)]
pub struct Transaction {
    pub(crate) request: u64,
}

impl Transaction {
    pub fn begin(request: u64) -> Transaction {
        Transaction { request }
    }
}

/// The params of one fake I/O op: its index within its request (0…fanout−1 and the commit
/// fanout in parallel, the step number in doxbee).
#[derive(Debug)]
#[expect(
    dead_code,
    reason = "the seed's object: built and dropped as the seed builds it; nothing reads it"
)]
pub(crate) struct Params {
    pub(crate) index: u64,
}

/// The query one fake I/O op makes, as bluebird's fake database call does
/// (benchmark/lib/fakemaker.js; docs/PROTOCOL.md §4, "One fake I/O op"): a heap allocation
/// of its own holding its [`Params`] and `tx`, the op's reference to the request's
/// [`Transaction`]. [`Query::call`] makes it and lets it go once the call is made, as the
/// seed does: nothing holds it while the op waits on the runtime's timer.
#[derive(Debug)]
#[expect(
    dead_code,
    reason = "the seed's object: built and dropped as the seed builds it; nothing reads it"
)]
pub struct Query<T> {
    pub(crate) params: Params,
    pub(crate) tx: T,
}

impl<T> Query<T> {
    /// The fake database call of op `index` in transaction `tx`: makes the op's query, a
    /// new `Box` holding new params, and lets it go at once, dropping its `tx` with it.
    /// Written as the seed's program is, with no `black_box`: where the compiler elides the
    /// allocation, that is Rust's own advantage, as eliding it is V8's (docs/PROTOCOL.md §4).
    pub fn call(index: u64, tx: T) {
        drop(Box::new(Query {
            params: Params { index },
            tx,
        }));
    }
}

/// State of one upload: the blob, the transaction (`T`: how the contestant shares it), and
/// what later steps build.
#[derive(Debug, Clone)]
#[expect(
    dead_code,
    reason = "the seed's object: built and dropped as the seed builds it; nothing reads it"
)]
pub(crate) struct Upload<T> {
    pub(crate) request: u64,
    pub(crate) blob: String,
    pub(crate) tx: T,
}

/// The version record of step 4.
#[derive(Debug, Clone)]
#[expect(
    dead_code,
    reason = "the seed's object: built and dropped as the seed builds it; nothing reads it"
)]
pub(crate) struct Version {
    pub(crate) user_id: u64,
    pub(crate) created: SystemTime,
    pub(crate) blob_id: u64,
    pub(crate) creator: String,
    pub(crate) previous_id: Option<u64>,
    pub(crate) hash: &'static str,
}

impl<T: From<Transaction>> Upload<T> {
    /// Step 1: create the blob and begin the transaction.
    pub(crate) fn begin(request: u64) -> Upload<T> {
        Upload {
            request,
            blob: format!("blob-{request}"),
            tx: T::from(Transaction::begin(request)),
        }
    }
}

impl<T> Upload<T> {
    /// Step 4: the version record (the lookup of step 3 found no file).
    pub(crate) fn version(&self) -> Version {
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
    pub(crate) fn file_query(&self) -> (String, String) {
        let path = format!("/files/{}/upload.bin", self.request);
        let name = path.rsplit('/').next().unwrap_or_default().to_string();
        (name, format!("{:032x}", self.request))
    }
}

/// One whole upload request, steps 1–9 of docs/PROTOCOL.md §4: `io(step, tx)` is awaited
/// for each fake I/O op, with its step number and a clone of the request's transaction, and
/// yields 1 (the op makes its [`Query`] and waits on the runtime's timer for `io-ms`); the
/// sum — the ops that really completed — is the request's share of the checksum.
/// Contestants pass only how they wait and `T`, how they share the transaction (`Arc` or
/// `Rc`); [`upload_blocking`] is the same request for tasks that block.
pub async fn upload<T, F, Op>(request: u64, mut io: F) -> u64
where
    T: From<Transaction> + Clone,
    F: FnMut(u64, T) -> Op,
    Op: std::future::Future<Output = u64>,
{
    let upload = Upload::<T>::begin(request);
    let mut done = io(2, upload.tx.clone()).await; // 2. put the blob
    done += io(3, upload.tx.clone()).await; // 3. look the file up: it does not exist
    let version = upload.version();
    done += io(5, upload.tx.clone()).await; // 5. insert the version
    let query = upload.file_query();
    done += io(6, upload.tx.clone()).await; // 6. execute the "create file" query
    done += io(7, upload.tx.clone()).await; // 7. insert the file–version link
    done += io(8, upload.tx.clone()).await; // 8. update the file's current version
    done += io(9, upload.tx.clone()).await; // 9. commit
    black_box((&upload, &version, &query));
    done
}

/// [`upload`] for runtimes whose tasks block (OS threads, stackful coroutines): `io(step,
/// tx)` blocks for each fake I/O op and returns 1, line for line as `upload` awaits it.
pub fn upload_blocking<T>(request: u64, mut io: impl FnMut(u64, T) -> u64) -> u64
where
    T: From<Transaction> + Clone,
{
    let upload = Upload::<T>::begin(request);
    let mut done = io(2, upload.tx.clone()); // 2. put the blob
    done += io(3, upload.tx.clone()); // 3. look the file up: it does not exist
    let version = upload.version();
    done += io(5, upload.tx.clone()); // 5. insert the version
    let query = upload.file_query();
    done += io(6, upload.tx.clone()); // 6. execute the "create file" query
    done += io(7, upload.tx.clone()); // 7. insert the file–version link
    done += io(8, upload.tx.clone()); // 8. update the file's current version
    done += io(9, upload.tx.clone()); // 9. commit
    black_box((&upload, &version, &query));
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::{Future, ready};
    use std::pin::pin;
    use std::rc::Rc;
    use std::task::{Context, Poll, Waker};

    /// Polls `request` once, with a waker that does nothing: enough when no op is pending.
    fn poll_once(request: impl Future<Output = u64>) -> Poll<u64> {
        pin!(request).poll(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn both_uploads_do_the_seven_io_steps_and_return_seven() {
        const STEPS: [u64; 7] = [2, 3, 5, 6, 7, 8, 9];
        let mut steps = Vec::new();
        let done = upload_blocking(3, |step, tx: Rc<Transaction>| {
            steps.push((step, tx.request));
            1
        });
        assert_eq!(done, 7);
        assert_eq!(steps, STEPS.map(|step| (step, 3)));

        let mut steps = Vec::new();
        let done = poll_once(upload(3, |step, tx: Rc<Transaction>| {
            steps.push((step, tx.request));
            ready(1)
        }));
        assert_eq!(done, Poll::Ready(7));
        assert_eq!(steps, STEPS.map(|step| (step, 3)));
    }

    #[test]
    fn a_call_makes_its_query_and_lets_it_go_with_its_transaction() {
        let tx = Rc::new(Transaction::begin(4));
        Query::call(25, Rc::clone(&tx));
        assert_eq!(Rc::strong_count(&tx), 1);
    }
}
