//! A small Chrome DevTools Protocol client, for tests that drive a page as a person would
//! (keys, clicks, reloads, screenshots) and watch what it fetches. It talks to headless
//! Chromium over `--remote-debugging-pipe`: Chromium reads NUL-terminated JSON messages on
//! its fd 3 and writes them on its fd 4, so there is no port, no websocket and no crate
//! beyond std, libc and serde_json. [`Browser::launch`] gives `None` where Chromium is not
//! installed (the caller then `skip`s); every call panics with what went wrong on a
//! protocol error or after 30 s; dropping the browser kills its whole process group.

use super::util::skip;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, PipeReader, PipeWriter, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// Headless Chromium that does nothing on the network of its own accord (no updates, sync
/// or background fetches), for every test that starts one.
pub(crate) const HEADLESS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// How long one command's reply, or one awaited event, may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Resolves once the document has loaded and two frames have been drawn since, so that
/// what its scripts do at load time is on screen.
const SETTLED: &str = "new Promise(done => {
  const settle = () => requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
  if (document.readyState === 'complete') settle();
  else addEventListener('load', settle, { once: true });
})";

/// The keys [`Page::press`] knows: DOM `key`, DOM `code`, Windows virtual key code, and
/// the text the key types (sent as a `char` event: Enter's activates links and buttons).
const KEYS: &[(&str, &str, u32, &str)] = &[
    ("Tab", "Tab", 9, ""),
    ("Enter", "Enter", 13, "\r"),
    ("Escape", "Escape", 27, ""),
    (" ", "Space", 32, " "),
    ("Backspace", "Backspace", 8, ""),
    ("PageUp", "PageUp", 33, ""),
    ("PageDown", "PageDown", 34, ""),
    ("End", "End", 35, ""),
    ("Home", "Home", 36, ""),
    ("ArrowLeft", "ArrowLeft", 37, ""),
    ("ArrowUp", "ArrowUp", 38, ""),
    ("ArrowRight", "ArrowRight", 39, ""),
    ("ArrowDown", "ArrowDown", 40, ""),
];

/// Headless Chromium with a fresh profile, driven over its DevTools pipe.
pub(crate) struct Browser {
    child: Child,
    /// Chromium's fd 3: commands go here.
    commands: PipeWriter,
    /// What Chromium wrote on its fd 4, one parsed message at a time (a thread reads it).
    messages: Receiver<Result<Value, String>>,
    /// Events that came while waiting for something else, oldest first.
    events: VecDeque<Value>,
    /// (session, URL) of every `Network.requestWillBeSent` seen.
    requests: Vec<(String, String)>,
    /// The id of the last command sent.
    last_id: u64,
    /// The viewport every page gets, in CSS pixels.
    size: (u32, u32),
    /// Holds the profile and Chromium's stderr (the end of which a failure shows).
    scratch: tempfile::TempDir,
}

impl Browser {
    /// Starts Chromium with a fresh profile under `scratch`, its pages `width`×`height`;
    /// `None` if it is not installed.
    pub(crate) fn launch(scratch: &Path, width: u32, height: u32) -> Option<Browser> {
        let scratch = tempfile::tempdir_in(scratch).unwrap();
        // Both ends close on exec: only the copies on fds 3 and 4 reach Chromium.
        let (theirs_in, commands) = io::pipe().unwrap();
        let (from_them, theirs_out) = io::pipe().unwrap();
        let mut command = chromium(scratch.path());
        let (read, write) = (theirs_in.as_raw_fd(), theirs_out.as_raw_fd());
        // SAFETY: the closure runs between fork and exec and makes only async-signal-safe
        // calls (fcntl, dup2, close) on descriptors this process owns.
        unsafe { command.pre_exec(move || onto_3_and_4(read, write)) };
        let child = match command.spawn() {
            Ok(child) => child,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return None,
            Err(e) => panic!("cannot start chromium: {e}"),
        };
        drop((theirs_in, theirs_out));
        let (sender, messages) = mpsc::channel();
        std::thread::spawn(move || read_messages(from_them, &sender));
        let mut browser = Browser {
            child,
            commands,
            messages,
            events: VecDeque::new(),
            requests: Vec::new(),
            last_id: 0,
            size: (width, height),
            scratch,
        };
        browser.call(None, "Browser.getVersion", &json!({}));
        Some(browser)
    }

    /// A new tab on about:blank, sized as [`Browser::launch`] was told, its page, runtime
    /// and network events on.
    pub(crate) fn page(&mut self) -> Page<'_> {
        let created = self.call(None, "Target.createTarget", &json!({"url": "about:blank"}));
        let target = text(&created["targetId"]).to_owned();
        let attach = json!({"targetId": target, "flatten": true});
        let attached = self.call(None, "Target.attachToTarget", &attach);
        let session = text(&attached["sessionId"]).to_owned();
        let (width, height) = self.size;
        let mut page = Page {
            browser: self,
            session,
            target,
        };
        for domain in ["Page", "Runtime", "Network"] {
            page.call(&format!("{domain}.enable"), &json!({}));
        }
        page.resize(width, height);
        page
    }

    /// Sends `method` with `params` (to `session`'s target, or to the browser); its id.
    fn send(&mut self, session: Option<&str>, method: &str, params: &Value) -> io::Result<u64> {
        self.last_id += 1;
        let mut message = json!({"id": self.last_id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = session.into();
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.commands.write_all(&bytes)?;
        Ok(self.last_id)
    }

    /// Runs `method` and returns its result; events that come meanwhile are kept.
    fn call(&mut self, session: Option<&str>, method: &str, params: &Value) -> Value {
        let id = self
            .send(session, method, params)
            .unwrap_or_else(|e| self.fail(&format!("cannot send {method}: {e}")));
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let mut message = self.next_message(deadline, method);
            if message["id"] == id {
                if let Some(error) = message.get("error") {
                    self.fail(&format!("{method} {params}: {error}"));
                }
                return message["result"].take();
            }
            if message.get("method").is_some() {
                self.events.push_back(message);
            }
        }
    }

    /// The next `method` event of `session`: the oldest kept, or the next to come.
    fn wait_for_event(&mut self, session: &str, method: &str) -> Value {
        let matches = |e: &Value| e["method"] == method && e["sessionId"] == session;
        if let Some(at) = self.events.iter().position(matches) {
            return self.events.remove(at).unwrap();
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = self.next_message(deadline, method);
            if matches(&message) {
                return message;
            }
            if message.get("method").is_some() {
                self.events.push_back(message);
            }
        }
    }

    /// Drops the kept events of `session`, so that the next wait sees only later ones.
    fn forget(&mut self, session: &str) {
        self.events.retain(|e| e["sessionId"] != session);
    }

    /// The next message Chromium writes, noting the requests it announces; a failure past
    /// `deadline`.
    fn next_message(&mut self, deadline: Instant, awaited: &str) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = match self.messages.recv_timeout(left) {
            Ok(Ok(message)) => message,
            Ok(Err(e)) => self.fail(&e),
            Err(RecvTimeoutError::Timeout) => self.fail(&format!("no {awaited} in {TIMEOUT:?}")),
            Err(RecvTimeoutError::Disconnected) => {
                self.fail(&format!("Chromium closed its pipe, awaiting {awaited}"))
            }
        };
        if message["method"] == "Network.requestWillBeSent" {
            let session = message["sessionId"].as_str().unwrap_or_default().to_owned();
            let url = text(&message["params"]["request"]["url"]).to_owned();
            self.requests.push((session, url));
        }
        message
    }

    /// Fails the test with `what` and the last lines Chromium printed.
    fn fail(&self, what: &str) -> ! {
        let printed = std::fs::read(self.scratch.path().join("stderr")).unwrap_or_default();
        let printed = String::from_utf8_lossy(&printed);
        let lines: Vec<&str> = printed.lines().collect();
        let tail = lines[lines.len().saturating_sub(20)..].join("\n");
        panic!("chromium: {what}; its stderr ends:\n{tail}");
    }
}

impl Drop for Browser {
    /// Kills Chromium with its renderers, zygote and helpers: its process group.
    fn drop(&mut self) {
        // SAFETY: kill has no memory preconditions; the leader is unreaped, so the group
        // id is still its own.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// One tab of a [`Browser`], attached in a session of its own.
pub(crate) struct Page<'a> {
    browser: &'a mut Browser,
    session: String,
    target: String,
}

impl Page<'_> {
    /// Loads `url` and waits until it has loaded and settled (see [`Page::wait_for_load`]).
    pub(crate) fn navigate(&mut self, url: &str) {
        self.browser.forget(&self.session);
        let reply = self.call("Page.navigate", &json!({"url": url}));
        if let Some(error) = reply.get("errorText") {
            panic!("cannot load {url}: {error}");
        }
        // A move within the document (a new #fragment) loads nothing.
        if reply.get("loaderId").is_some() {
            self.wait_for_load();
        }
    }

    /// Waits for the page's next load event (after the last navigation, key or click),
    /// then until the document is complete and two frames have been drawn.
    pub(crate) fn wait_for_load(&mut self) {
        self.browser
            .wait_for_event(&self.session, "Page.loadEventFired");
        self.eval(SETTLED);
    }

    /// Reloads the page and waits as [`Page::navigate`] does.
    pub(crate) fn reload(&mut self) {
        self.browser.forget(&self.session);
        self.call("Page.reload", &json!({}));
        self.wait_for_load();
    }

    /// The value of `js`, an expression (a promise is awaited); fails the test if it throws.
    pub(crate) fn eval(&mut self, js: &str) -> Value {
        let params = json!({"expression": js, "returnByValue": true, "awaitPromise": true});
        let mut reply = self.call("Runtime.evaluate", &params);
        if let Some(thrown) = reply.get("exceptionDetails") {
            let description = &thrown["exception"]["description"];
            let why = description
                .as_str()
                .unwrap_or_else(|| text(&thrown["text"]));
            panic!("{js}\nthrew: {why}");
        }
        reply["result"]["value"].take()
    }

    /// Presses and releases `key`, one of [`KEYS`] ("Tab", "Enter", " ", "ArrowDown"…).
    pub(crate) fn press(&mut self, key: &str) {
        let &(key, code, number, typed) = KEYS
            .iter()
            .find(|k| k.0 == key)
            .unwrap_or_else(|| panic!("press: unknown key {key:?}"));
        self.browser.forget(&self.session);
        let event = |kind: &str| {
            json!({"type": kind, "key": key, "code": code,
                   "windowsVirtualKeyCode": number, "nativeVirtualKeyCode": number})
        };
        self.call("Input.dispatchKeyEvent", &event("rawKeyDown"));
        if !typed.is_empty() {
            let mut char = event("char");
            char["text"] = typed.into();
            char["unmodifiedText"] = typed.into();
            self.call("Input.dispatchKeyEvent", &char);
        }
        self.call("Input.dispatchKeyEvent", &event("keyUp"));
    }

    /// Scrolls the first element matching `selector` into view and clicks its centre with
    /// the left button. A click that loads a page is followed by [`Page::wait_for_load`].
    pub(crate) fn click(&mut self, selector: &str) {
        let centre = self.eval(&format!(
            "(() => {{
              const e = document.querySelector({});
              if (!e) return null;
              e.scrollIntoView({{ block: 'center', inline: 'center', behavior: 'instant' }});
              const box = e.getBoundingClientRect();
              return [box.left + box.width / 2, box.top + box.height / 2];
            }})()",
            json!(selector)
        ));
        let [x, y] = [0, 1].map(|i| centre[i].as_f64());
        let (Some(x), Some(y)) = (x, y) else {
            panic!("click: nothing matches {selector}");
        };
        self.browser.forget(&self.session);
        for kind in ["mousePressed", "mouseReleased"] {
            let event = json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1});
            self.call("Input.dispatchMouseEvent", &event);
        }
    }

    /// The URL of every request this page has made (documents, images, scripts…) since it
    /// was opened, oldest first.
    pub(crate) fn requests(&self) -> Vec<String> {
        let own = self.browser.requests.iter().filter(|r| r.0 == self.session);
        own.map(|r| r.1.clone()).collect()
    }

    /// Writes a PNG of the viewport to `path`, or of the whole document if `full_page`.
    pub(crate) fn screenshot(&mut self, path: &Path, full_page: bool) {
        let (width, height) = self.browser.size;
        let mut params = json!({"format": "png"});
        if full_page {
            let document = self.eval("Math.ceil(document.documentElement.scrollHeight)");
            let tall = document.as_u64().map_or(height, |h| h as u32);
            self.resize(width, height.max(tall));
            self.eval(SETTLED);
            params["captureBeyondViewport"] = true.into();
        }
        let shot = self.call("Page.captureScreenshot", &params);
        if full_page {
            self.resize(width, height);
        }
        std::fs::write(path, base64(text(&shot["data"])))
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }

    /// The page's address (`location.href`).
    pub(crate) fn url(&mut self) -> String {
        text(&self.eval("location.href")).to_owned()
    }

    /// Lays the page out in a `width`×`height` viewport at one device pixel per CSS pixel.
    fn resize(&mut self, width: u32, height: u32) {
        let metrics = json!({"width": width, "height": height,
                             "deviceScaleFactor": 1, "mobile": false});
        self.call("Emulation.setDeviceMetricsOverride", &metrics);
    }

    /// Runs `method` in this page's session.
    fn call(&mut self, method: &str, params: &Value) -> Value {
        self.browser.call(Some(&self.session), method, params)
    }
}

impl Drop for Page<'_> {
    /// Closes the tab without waiting (the reply is dropped as it comes) and forgets its
    /// events.
    fn drop(&mut self) {
        let close = json!({"targetId": self.target});
        let _ = self.browser.send(None, "Target.closeTarget", &close);
        self.browser.forget(&self.session);
    }
}

/// Headless Chromium with a fresh profile in `scratch`, its stderr in `scratch`/stderr and
/// in a process group of its own. Every host name and address but the loopback's resolves
/// to nothing, so that a page's request for the network fails at once and leaves nothing:
/// a request left pending (a dropped SYN) would hold the page's load event for minutes.
fn chromium(scratch: &Path) -> Command {
    let mut command = Command::new("chromium");
    command
        .args(HEADLESS)
        .args([
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
            "--remote-debugging-pipe",
        ])
        .arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(File::create(scratch.join("stderr")).unwrap())
        .process_group(0);
    command
}

/// In the child, between fork and exec: `read` onto fd 3 and `write` onto fd 4, where
/// `--remote-debugging-pipe` looks for them.
fn onto_3_and_4(read: i32, write: i32) -> io::Result<()> {
    let check = |result: i32| {
        if result < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(result)
        }
    };
    // SAFETY: fcntl, dup2 and close on descriptors open in this process; copies above 4
    // first, so that neither dup2 overwrites the other's source.
    unsafe {
        let read = check(libc::fcntl(read, libc::F_DUPFD, 5))?;
        let write = check(libc::fcntl(write, libc::F_DUPFD, 5))?;
        check(libc::dup2(read, 3))?;
        check(libc::dup2(write, 4))?;
        libc::close(read);
        libc::close(write);
    }
    Ok(())
}

/// Reads NUL-terminated JSON messages from `pipe` until it closes, passing each on.
fn read_messages(mut pipe: PipeReader, to: &Sender<Result<Value, String>>) {
    let mut buffer = vec![0; 1 << 16];
    let mut message = Vec::new();
    while let Ok(n @ 1..) = pipe.read(&mut buffer) {
        for piece in buffer[..n].split_inclusive(|&b| b == 0) {
            let Some((0, body)) = piece.split_last() else {
                message.extend_from_slice(piece);
                continue;
            };
            message.extend_from_slice(body);
            let parsed = serde_json::from_slice(&message).map_err(|e| {
                let shown = String::from_utf8_lossy(&message[..message.len().min(500)]);
                format!("unreadable message ({e}): {shown}")
            });
            message.clear();
            if to.send(parsed).is_err() {
                return;
            }
        }
    }
}

/// A string `value` of a reply, or a failure naming what was there instead.
fn text(value: &Value) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("expected a string, got {value}"))
}

/// `encoded` decoded from standard base64 (how Chromium sends a screenshot).
fn base64(encoded: &str) -> Vec<u8> {
    let mut decoded = Vec::with_capacity(encoded.len() / 4 * 3);
    let (mut bits, mut held) = (0u32, 0);
    for c in encoded.bytes().filter(|&c| c != b'=') {
        let six = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {:?}", char::from(c)),
        };
        bits = (bits << 6 | u32::from(six)) & 0xffff;
        held += 6;
        if held >= 8 {
            held -= 8;
            decoded.push((bits >> held) as u8);
        }
    }
    decoded
}

#[test]
fn the_devtools_client_drives_a_page() {
    let scratch = tempfile::tempdir().unwrap();
    let Some(mut browser) = Browser::launch(scratch.path(), 800, 600) else {
        return skip("chromium is not installed; apt-get install chromium");
    };
    let dir = scratch.path();
    let pages = [
        (
            "a.html",
            "<title>A</title><h1>Page A</h1>\
             <button id=mark onclick=\"location.hash = 'marked'\">mark</button>\
             <a href=b.html id=go>to B</a>",
        ),
        ("b.html", "<title>B</title><h1>Page B</h1>"),
        (
            "c.html",
            "<title>C</title><h1>Page C</h1><img src=\"http://203.0.113.1/x.png\" alt=x>",
        ),
    ];
    for (name, html) in pages {
        std::fs::write(dir.join(name), format!("<!doctype html>{html}")).unwrap();
    }
    let url = |name: &str| format!("file://{}", dir.join(name).display());
    let mut page = browser.page();
    page.navigate(&url("a.html"));
    assert_eq!(page.eval("document.title"), "A");
    // A click focuses the button; Tab moves on to the link and Enter follows it.
    page.click("#mark");
    assert_eq!(page.eval("location.hash"), "#marked");
    page.press("Tab");
    assert_eq!(page.eval("document.activeElement.id"), "go");
    page.press("Enter");
    page.wait_for_load();
    assert!(page.url().ends_with("/b.html"), "{}", page.url());

    // The image is asked for (and fails at once: see `chromium`), and nothing else leaves
    // file://, on the first load and on the reload.
    page.navigate(&url("c.html"));
    let away = "http://203.0.113.1/x.png";
    let outside = |page: &Page| {
        let mut requests = page.requests();
        requests.retain(|r| !r.starts_with("file://"));
        requests
    };
    assert_eq!(outside(&page), [away]);
    page.reload();
    assert_eq!(
        page.eval("document.querySelector('h1').textContent"),
        "Page C"
    );
    assert_eq!(outside(&page), [away, away]);
    let shot = dir.join("c.png");
    page.screenshot(&shot, true);
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{:?}", &png[..8]);
    // IHDR's width: the viewport's.
    assert_eq!(png[16..20], 800u32.to_be_bytes());
}
