//! A floor task: one heap allocation holding a 32-byte header (state and reference count,
//! the task's slot in the registry of waiting tasks, its vtable, its join waker) and its
//! stage: the future, then, in the same bytes, its output. That allocation is the runnable
//! on the run queue, the target of every waker of the task (a hand-written [`RawWaker`]
//! over its reference count) and the target of its [`JoinHandle`], which takes the output
//! from it. A spawn allocates once, and a task's end frees once.
//!
//! A task whose future exists (a live task) is on the run queue, or being polled, or it
//! has returned pending at least once and is then in the thread's registry of such tasks
//! (flag `LISTED`), so that the executor's shutdown finds every live task on the queue or in
//! the registry. A task that finishes on its first poll never touches the registry.
//!
//! References to a task, counted in its header:
//! - the task's own, while its future exists (from spawn until the future is dropped,
//!   finished or cancelled);
//! - one per [`TaskRef`], at most one of which is on the run queue (flag `QUEUED`);
//! - one per [`Waker`] of the task;
//! - its [`JoinHandle`]'s, while the handle exists (flag `HANDLE`).
//!
//! The last reference to go frees the allocation.
//!
//! Everything here is single-threaded: counts and flags are plain [`Cell`]s. A [`Waker`] is
//! `Send` by type, but a floor waker must be cloned, woken and dropped on the thread that
//! spawned its task. Nothing in this crate takes one to another thread (its futures and
//! channels are `!Send`, and the executor runs on the one thread that calls `block_on`).

use std::cell::{Cell, RefCell, UnsafeCell};
use std::future::Future;
use std::marker::PhantomData;
use std::mem::{ManuallyDrop, offset_of};
use std::pin::Pin;
use std::ptr::NonNull;
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};

/// A [`TaskRef`] of the task is on the run queue: a second wake adds nothing.
const QUEUED: u32 = 1;
/// The future is gone, or going: it finished or it is being cancelled. The task is never
/// polled again.
const DONE: u32 = 1 << 1;
/// The task is over for its handle: the output is in the stage if it finished (and the
/// handle was there to want it); it was cancelled if not.
const FINISHED: u32 = 1 << 2;
/// The stage holds the output, not yet taken.
const OUTPUT: u32 = 1 << 3;
/// The task's [`JoinHandle`] exists.
const HANDLE: u32 = 1 << 4;
/// The task is in the registry, at its `slot`.
const LISTED: u32 = 1 << 5;
/// One reference, in the bits of the state above the flags.
const REF: u32 = 1 << 6;

/// The part of a task that does not depend on its future's type.
struct Header {
    /// The flags, and above them the count of references in units of `REF`.
    state: Cell<u32>,
    /// The task's index in the registry, while `LISTED`.
    slot: Cell<u32>,
    vtable: &'static Vtable,
    /// The waker of the task awaiting the [`JoinHandle`], woken when the future finishes.
    join_waker: Cell<Option<Waker>>,
}

impl Header {
    fn has(&self, flags: u32) -> bool {
        self.state.get() & flags != 0
    }

    fn set(&self, flag: u32) {
        self.state.set(self.state.get() | flag);
    }

    fn clear(&self, flag: u32) {
        self.state.set(self.state.get() & !flag);
    }

    fn add_ref(&self) {
        // Only waker clones can run the count up (the other references are one per task,
        // or one queue entry at most): 2^26 of them would hold a gigabyte of wakers. A
        // count that would wrap panics, leaving the state as it was.
        let state = self.state.get().checked_add(REF);
        self.state
            .set(state.expect("floor: fewer than 2^26 references to a task"));
    }

    /// Drops one reference; true if it was the last.
    fn drop_ref(&self) -> bool {
        let state = self.state.get() - REF;
        self.state.set(state);
        state < REF
    }
}

/// What needs the future's type, for the code that only has a [`Header`].
struct Vtable {
    /// Polls the future once; if it finishes, drops it, stores its output and sets
    /// `FINISHED`. Returns whether it finished.
    poll: unsafe fn(NonNull<Header>) -> bool,
    /// Drops the unfinished future, and sets `FINISHED`.
    cancel: unsafe fn(NonNull<Header>),
    /// Frees the allocation (with the output, if it is still in the stage).
    dealloc: unsafe fn(NonNull<Header>),
    /// Where the stage is, from the header: a [`JoinHandle`] knows the output's type only.
    stage: usize,
}

/// The allocation: `repr(C)` with the header first, so that a pointer to the header is a
/// pointer to the task.
#[repr(C)]
struct Task<F: Future> {
    header: Header,
    stage: UnsafeCell<Stage<F>>,
}

/// The future until `DONE`, pinned here and dropped in place; then the output, while
/// `OUTPUT` says so. Its bytes are only ever reached through raw pointers.
#[repr(C)]
union Stage<F: Future> {
    future: ManuallyDrop<F>,
    output: ManuallyDrop<F::Output>,
}

impl<F: Future> Task<F> {
    const VTABLE: Vtable = Vtable {
        poll: Self::poll,
        cancel: Self::cancel,
        dealloc: Self::dealloc,
        stage: offset_of!(Self, stage),
    };

    /// The stage of the `Task<F>` at `ptr`, reached without a reference to the task.
    ///
    /// # Safety
    /// `ptr` is the header of a live `Task<F>`.
    unsafe fn stage(ptr: NonNull<Header>) -> *mut Stage<F> {
        // SAFETY: the field is in the live allocation; nothing is read.
        UnsafeCell::raw_get(unsafe { &raw const (*ptr.cast::<Self>().as_ptr()).stage })
    }

    /// # Safety
    /// `ptr` is the header of a `Task<F>` that the caller holds a reference to, that is not
    /// `DONE`, and that is not being polled.
    unsafe fn poll(ptr: NonNull<Header>) -> bool {
        // SAFETY: the caller's reference keeps the task alive.
        let (header, stage) = unsafe { (ptr.as_ref(), Self::stage(ptr)) };
        // SAFETY: the waker borrows the caller's reference, so it must not drop one:
        // `ManuallyDrop` keeps its drop from running; its clones count their own.
        let waker = ManuallyDrop::new(unsafe { Waker::from_raw(raw_waker(ptr)) });
        // SAFETY: the stage holds the future until `DONE` (not set, per the caller); it
        // never moves in its allocation, and no other reference to it exists: only this
        // function and `cancel` touch it, and the executor neither polls a task inside its
        // own poll (`block_on` does not nest) nor cancels one while polling.
        let future = unsafe { Pin::new_unchecked(&mut *(*stage).future) };
        let Poll::Ready(output) = future.poll(&mut Context::from_waker(&waker)) else {
            return false;
        };
        header.set(DONE);
        // SAFETY: the future finished; with `DONE` set nothing touches it again.
        unsafe { ManuallyDrop::drop(&mut (*stage).future) };
        // Asked after the future's drop, which may have dropped the handle.
        if header.has(HANDLE) {
            // SAFETY: the future is gone, so the stage is free for the output; the handle
            // reads it only once `OUTPUT` is set.
            unsafe { (*stage).output = ManuallyDrop::new(output) };
            header.set(OUTPUT);
        }
        header.set(FINISHED);
        true
    }

    /// # Safety
    /// As for `poll`.
    unsafe fn cancel(ptr: NonNull<Header>) {
        // SAFETY: the caller's reference keeps the task alive.
        let header = unsafe { ptr.as_ref() };
        header.set(DONE);
        // SAFETY: as in `poll`: the stage holds the future, nothing else refers to it, and
        // with `DONE` set nothing touches it again.
        unsafe { ManuallyDrop::drop(&mut (*Self::stage(ptr)).future) };
        header.set(FINISHED);
    }

    /// # Safety
    /// `ptr` is the header of a `Task<F>` whose last reference is gone (so the task's own
    /// is gone: its future is dropped).
    unsafe fn dealloc(ptr: NonNull<Header>) {
        // SAFETY: the allocation is intact until the box below goes.
        if unsafe { ptr.as_ref() }.has(OUTPUT) {
            // SAFETY: `OUTPUT` says the stage holds the output, and no reference is left
            // to take it.
            unsafe { ManuallyDrop::drop(&mut (*Self::stage(ptr)).output) };
        }
        // SAFETY: the allocation came from `Box::into_raw` in `new`, as a `Task<F>`; the
        // stage is a union of `ManuallyDrop`s, so the box drops only the header (its join
        // waker, if a joiner is still registered).
        drop(unsafe { Box::from_raw(ptr.cast::<Self>().as_ptr()) });
    }
}

/// Allocates a task running `future`; returns the reference for the run queue (already
/// counted as `QUEUED`) and the join handle.
pub(crate) fn new<F>(future: F) -> (TaskRef, JoinHandle<F::Output>)
where
    F: Future + 'static,
{
    let task = Box::new(Task {
        header: Header {
            // The task's own, the returned `TaskRef`'s and the handle's.
            state: Cell::new((3 * REF) | QUEUED | HANDLE),
            slot: Cell::new(0),
            vtable: &Task::<F>::VTABLE,
            join_waker: Cell::new(None),
        },
        stage: UnsafeCell::new(Stage {
            future: ManuallyDrop::new(future),
        }),
    });
    // SAFETY: `Box::into_raw` is never null.
    let ptr = unsafe { NonNull::new_unchecked(Box::into_raw(task)) }.cast::<Header>();
    let handle = JoinHandle {
        ptr,
        _output: PhantomData,
    };
    (TaskRef(ptr), handle)
}

/// A counted reference to a task: the run queue's entries, and a waker being woken.
pub(crate) struct TaskRef(NonNull<Header>);

impl TaskRef {
    fn header(&self) -> &Header {
        // SAFETY: this reference keeps the allocation alive; the header is only ever
        // reached through shared references (its mutable parts are `Cell`s).
        unsafe { self.0.as_ref() }
    }

    /// Called by the executor for the queue's entry: polls the task once, unless it is
    /// `DONE` (a stale entry, left by a task that woke itself and then finished). A task
    /// that returns pending for the first time enters the registry; one that finishes
    /// leaves it, wakes its joiner and drops its own reference.
    pub(crate) fn run(self) {
        /// Lists a task whose poll unwinds, so that the shutdown that follows drops it.
        struct ListOnUnwind<'a>(&'a TaskRef);
        impl Drop for ListOnUnwind<'_> {
            fn drop(&mut self) {
                self.0.list();
            }
        }

        let header = self.header();
        header.clear(QUEUED);
        if header.has(DONE) {
            return;
        }
        let unwinding = ListOnUnwind(&self);
        // SAFETY: `self` keeps the task alive, it is not `DONE`, and it is not being
        // polled: it was on the queue, so its last poll had returned, and a task is polled
        // only from the queue.
        let finished = unsafe { (header.vtable.poll)(self.0) };
        std::mem::forget(unwinding);
        if finished {
            self.retire();
        } else {
            self.list();
        }
    }

    /// Enters the live task in the registry, unless it is there.
    fn list(&self) {
        let header = self.header();
        if !header.has(LISTED) {
            let slot = LIVE.with_borrow_mut(|live| live.insert(self.0));
            header.slot.set(slot);
            header.set(LISTED);
        }
    }

    /// Called by the executor at shutdown, for the queue's entries and (through
    /// [`cancel_listed`]) the registry's: drops the future unfinished, unless it is gone.
    pub(crate) fn cancel(self) {
        let header = self.header();
        header.clear(QUEUED);
        if header.has(DONE) {
            return;
        }
        // SAFETY: `self` keeps the task alive, it is not `DONE`, and the executor polls
        // nothing while it shuts down.
        unsafe { (header.vtable.cancel)(self.0) };
        self.retire();
    }

    /// After the future is gone: takes the task out of the registry, wakes its joiner and
    /// drops the task's own reference (never the last: `self` is one more).
    fn retire(&self) {
        let header = self.header();
        if header.has(LISTED) {
            header.clear(LISTED);
            LIVE.with_borrow_mut(|live| live.remove(header.slot.get()));
        }
        if let Some(joiner) = header.join_waker.take() {
            joiner.wake();
        }
        let last = header.drop_ref();
        debug_assert!(!last, "the caller holds a reference");
    }

    /// Queues the task, unless it is queued already or `DONE` (then the reference drops).
    fn schedule(self) {
        let header = self.header();
        if !header.has(QUEUED | DONE) {
            header.set(QUEUED);
            crate::executor::push(self);
        }
    }
}

impl Drop for TaskRef {
    fn drop(&mut self) {
        // SAFETY: this reference is counted, and it is going.
        unsafe { release(self.0) };
    }
}

/// Drops one counted reference to the task at `ptr`; the last one frees it.
///
/// # Safety
/// The caller owns a counted reference to the task and gives it up.
unsafe fn release(ptr: NonNull<Header>) {
    // SAFETY: the caller's reference keeps the task alive until the count says otherwise.
    let header = unsafe { ptr.as_ref() };
    if header.drop_ref() {
        // SAFETY: that was the last reference, so the task's own is gone too.
        unsafe { (header.vtable.dealloc)(ptr) };
    }
}

/// Cancels the tasks in the registry, as [`TaskRef::cancel`] does; returns whether there
/// were any. The executor calls it at shutdown; the futures' drops may wake, spawn and drop
/// other tasks, but none enters the registry (that takes a poll).
pub(crate) fn cancel_listed() -> bool {
    let mut any = false;
    while let Some(ptr) = LIVE.with_borrow_mut(Registry::take_any) {
        any = true;
        // SAFETY: a listed task is live, alive by its own reference.
        let header = unsafe { ptr.as_ref() };
        header.clear(LISTED);
        // One more, for the `TaskRef`: `retire` drops the task's own.
        header.add_ref();
        TaskRef(ptr).cancel();
    }
    any
}

/// A spawned task's result; `None` if the task was cancelled unfinished (when `block_on`
/// returned before it).
pub struct JoinHandle<T> {
    /// The handle's counted reference to a `Task<F>` with `F::Output = T`.
    ptr: NonNull<Header>,
    _output: PhantomData<T>,
}

impl<T> JoinHandle<T> {
    fn header(&self) -> &Header {
        // SAFETY: the handle's reference keeps the task alive; see `TaskRef::header`.
        unsafe { self.ptr.as_ref() }
    }

    /// The output, if the task has finished and it has not been taken.
    pub fn try_take(&mut self) -> Option<T> {
        let header = self.header();
        if !header.has(OUTPUT) {
            return None;
        }
        header.clear(OUTPUT);
        // SAFETY: the task is a `Task<F>` with `F::Output = T` (made so by `new`), whose
        // stage is `vtable.stage` bytes from the header and starts with the output, which
        // `OUTPUT` said is there. Clearing `OUTPUT` first makes this the one move out.
        Some(unsafe { self.ptr.byte_add(header.vtable.stage).cast::<T>().read() })
    }
}

// The handle is a pointer: moving it moves nothing of the task.
impl<T> Unpin for JoinHandle<T> {}

impl<T> Future for JoinHandle<T> {
    type Output = Option<T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        if self.header().has(FINISHED) {
            return Poll::Ready(self.try_take());
        }
        let joiner = match self.header().join_waker.take() {
            Some(joiner) if joiner.will_wake(cx.waker()) => joiner,
            _ => cx.waker().clone(),
        };
        self.header().join_waker.set(Some(joiner));
        Poll::Pending
    }
}

impl<T> Drop for JoinHandle<T> {
    fn drop(&mut self) {
        self.header().clear(HANDLE);
        // A joiner that gave up, and an output nobody will read, go now.
        drop(self.header().join_waker.take());
        drop(self.try_take());
        // SAFETY: the handle's reference is counted, and it is going.
        unsafe { release(self.ptr) };
    }
}

/// The one waker vtable: a waker's data is its task's header, and each waker holds a
/// counted reference to the task.
static WAKER_VTABLE: RawWakerVTable =
    RawWakerVTable::new(clone_waker, wake, wake_by_ref, drop_waker);

fn raw_waker(ptr: NonNull<Header>) -> RawWaker {
    RawWaker::new(ptr.as_ptr().cast_const().cast(), &WAKER_VTABLE)
}

// SAFETY (the four waker functions): `data` is the header of a task, and the waker holds a
// counted reference to it; they run on the task's thread (see the module's note).

unsafe fn clone_waker(data: *const ()) -> RawWaker {
    // SAFETY: the waker's reference keeps the task alive; the clone counts its own.
    unsafe { &*data.cast::<Header>() }.add_ref();
    RawWaker::new(data, &WAKER_VTABLE)
}

unsafe fn wake(data: *const ()) {
    // SAFETY: the waker's counted reference passes to the `TaskRef`.
    let task = TaskRef(unsafe { NonNull::new_unchecked(data.cast_mut().cast()) });
    task.schedule();
}

unsafe fn wake_by_ref(data: *const ()) {
    // SAFETY: the waker's reference keeps the task alive.
    let header = unsafe { &*data.cast::<Header>() };
    if !header.has(QUEUED | DONE) {
        header.add_ref();
        // SAFETY: that is the new `TaskRef`'s counted reference.
        let task = TaskRef(unsafe { NonNull::new_unchecked(data.cast_mut().cast()) });
        task.schedule();
    }
}

unsafe fn drop_waker(data: *const ()) {
    // SAFETY: the waker's counted reference goes.
    unsafe { release(NonNull::new_unchecked(data.cast_mut().cast())) };
}

thread_local! {
    static LIVE: RefCell<Registry> = const {
        RefCell::new(Registry {
            slots: Vec::new(),
            free: Vec::new(),
        })
    };
}

/// The thread's listed tasks: a slab of their headers, each live (alive by its own
/// reference) and removed before that reference goes.
struct Registry {
    slots: Vec<Option<NonNull<Header>>>,
    /// Empty slots below `slots.len()`.
    free: Vec<u32>,
}

impl Registry {
    fn insert(&mut self, ptr: NonNull<Header>) -> u32 {
        if let Some(slot) = self.free.pop() {
            self.slots[slot as usize] = Some(ptr);
            return slot;
        }
        let slot = u32::try_from(self.slots.len()).expect("floor: under 2^32 live tasks");
        self.slots.push(Some(ptr));
        slot
    }

    fn remove(&mut self, slot: u32) {
        self.slots[slot as usize] = None;
        self.free.push(slot);
    }

    /// Removes a listed task, the last slot first; the caller clears its `LISTED`. Only
    /// shutdown calls it, and between its calls only `remove` (no `insert`) may happen.
    fn take_any(&mut self) -> Option<NonNull<Header>> {
        // The slots are popped: a free one may be past the end.
        self.free.clear();
        while let Some(slot) = self.slots.pop() {
            if slot.is_some() {
                return slot;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests;
