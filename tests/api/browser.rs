//! A headless Chromium for the page tests, driven over the DevTools protocol: navigate,
//! evaluate, type, wait for a condition (with a deadline, never a fixed sleep), screenshot.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use base64::Engine;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

pub const CHROMIUM_FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
];

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One page of a headless Chromium, spoken to over the DevTools protocol.
pub struct Page {
    socket: Socket,
    next_id: u64,
    /// Errors the page reported (exceptions, `console.error`, CSP refusals, failed loads) once
    /// `watch_errors` turned reporting on.
    pub errors: Vec<String>,
}

impl Page {
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        let answer = self.answer(method, params).await;
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// The browser's whole answer to `method` (its `result` or its `error`).
    async fn answer(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"id": id, "method": method, "params": params}).to_string();
        self.socket.send(Message::Text(message.into())).await.expect("send to the browser");
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(20), self.socket.next()).await;
            let frame = frame.expect("the browser answers").expect("open").expect("frame");
            let Message::Text(text) = frame else { continue };
            let answer: Value = serde_json::from_str(&text).expect("json");
            if let Some(error) = reported_error(&answer) {
                self.errors.push(error);
            }
            if answer["id"] == id {
                return answer;
            }
        }
    }

    pub async fn eval(&mut self, expression: &str) -> Value {
        let result = self.call("Runtime.evaluate", json!({"expression": expression, "returnByValue": true})).await;
        result["result"]["value"].clone()
    }

    /// As `eval`, for a condition polled while the page may be navigating (a form posted): a
    /// page that navigates away during the evaluation answers `Null`, and the next poll reads
    /// the new page.
    async fn poll(&mut self, expression: &str) -> Value {
        let answer = self.answer("Runtime.evaluate", json!({"expression": expression, "returnByValue": true})).await;
        let navigated = answer["error"]["message"].as_str().is_some_and(|m| {
            m.contains("navigated or closed")
                || m.contains("context was destroyed")
                || m.contains("Cannot find context")
        });
        if navigated {
            return Value::Null;
        }
        assert!(answer.get("error").is_none(), "Runtime.evaluate: {answer}");
        answer["result"]["result"]["value"].clone()
    }

    /// Evaluates `expression`, awaiting the promise it gives.
    pub async fn eval_async(&mut self, expression: &str) -> Value {
        let params = json!({"expression": expression, "returnByValue": true, "awaitPromise": true});
        self.call("Runtime.evaluate", params).await["result"]["value"].clone()
    }

    /// Turns on the reporting of the page's errors into `errors`.
    pub async fn watch_errors(&mut self) {
        self.call("Runtime.enable", json!({})).await;
        self.call("Log.enable", json!({})).await;
    }

    /// Shows the page as a browser set to the dark (or light) colour scheme would.
    pub async fn prefer_dark(&mut self, dark: bool) {
        let scheme = if dark { "dark" } else { "light" };
        let media = json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]});
        self.call("Emulation.setEmulatedMedia", media).await;
    }

    /// Evaluates `expression` until it is true (a deadline, no fixed sleep).
    pub async fn until(&mut self, expression: &str, what: &str) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while self.poll(expression).await != Value::Bool(true) {
            assert!(tokio::time::Instant::now() < deadline, "{what} never happened");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// The error a DevTools event reports, if it is one: an uncaught exception, a `console.error`,
/// or a browser log entry of level error (a refused script or style, a failed load).
fn reported_error(event: &Value) -> Option<String> {
    let params = &event["params"];
    match event["method"].as_str()? {
        "Runtime.exceptionThrown" => Some(params["exceptionDetails"].to_string()),
        "Runtime.consoleAPICalled" if params["type"] == "error" => Some(params["args"].to_string()),
        "Log.entryAdded" if params["entry"]["level"] == "error" => {
            Some(format!("{} ({})", params["entry"]["text"], params["entry"]["url"]))
        }
        _ => None,
    }
}

/// Starts Chromium with a DevTools port of its own choosing and opens a blank page.
pub async fn browser(profile: &Path) -> (tokio::process::Child, Page) {
    let child = tokio::process::Command::new("chromium")
        .args(CHROMIUM_FLAGS)
        .arg("--remote-debugging-port=0")
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("chromium is installed (make deps installs it)");
    let port_file = profile.join("DevToolsActivePort");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let port = loop {
        let port = std::fs::read_to_string(&port_file).ok().and_then(|t| t.lines().next().map(str::to_owned));
        if let Some(port) = port.filter(|p| !p.is_empty()) {
            break port;
        }
        assert!(tokio::time::Instant::now() < deadline, "Chromium never opened its DevTools port");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let target: Value = reqwest::Client::new()
        .put(format!("http://127.0.0.1:{port}/json/new?about:blank"))
        .send()
        .await
        .expect("a new page")
        .json()
        .await
        .expect("json");
    let ws = target["webSocketDebuggerUrl"].as_str().expect("the page's DevTools address");
    let (socket, _) = tokio_tungstenite::connect_async(ws).await.expect("DevTools connects");
    (child, Page { socket, next_id: 0, errors: Vec::new() })
}

impl Page {
    /// Opens `url` and waits until the document has loaded.
    pub async fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url})).await;
        self.until("document.readyState === 'complete' && !!document.body", "the page loading").await;
    }

    /// Types `text` into the element `selector` as a keyboard would (focus, then the text).
    pub async fn type_into(&mut self, selector: &str, text: &str) {
        let focused = self.eval(&format!("(() => {{ const e = document.querySelector({selector:?}); if (!e) return false; e.focus(); e.value = ''; return true; }})()")).await;
        assert_eq!(focused, true, "{selector} is on the page");
        self.call("Input.insertText", json!({"text": text})).await;
    }

    /// Chooses `value` in the select (or date input) `selector`, as a person picking it does.
    pub async fn choose(&mut self, selector: &str, value: &str) {
        let done = self.eval(&format!("(() => {{ const e = document.querySelector({selector:?}); if (!e) return false; e.focus(); e.value = {value:?}; e.dispatchEvent(new Event('input', {{bubbles: true}})); e.dispatchEvent(new Event('change', {{bubbles: true}})); return e.value === {value:?}; }})()")).await;
        assert_eq!(done, true, "{selector} takes {value:?}");
    }

    /// Presses and releases `key` on the focused element ("Enter", or one character).
    pub async fn press(&mut self, key: &str) {
        for kind in ["keyDown", "keyUp"] {
            let mut event = json!({"type": kind, "key": key});
            if key == "Enter" {
                event["code"] = json!("Enter");
                event["windowsVirtualKeyCode"] = json!(13);
            } else if kind == "keyDown" {
                event["text"] = json!(key);
            }
            self.call("Input.dispatchKeyEvent", event).await;
        }
    }

    /// Clicks the element `selector` with the mouse, at its centre (scrolled into view first).
    /// The mouse goes only where the element is on screen: on a loaded machine a page may still
    /// lay out (its stylesheet arriving, the viewport just resized by a screenshot) between the
    /// measuring and the press, so the point is measured until the element itself is what it hits.
    pub async fn click(&mut self, selector: &str) {
        self.until("document.readyState === 'complete'", "the page loading").await;
        // The element's centre, once the element itself is what that point hits; else null.
        let measure = format!(
            "(() => {{ const e = document.querySelector({selector:?}); if (!e) return null; \
             e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); \
             const x = r.left + r.width / 2, y = r.top + r.height / 2; const hit = document.elementFromPoint(x, y); \
             return !!hit && (e === hit || e.contains(hit)) ? [x, y] : null; }})()"
        );
        self.until(&format!("{measure} !== null"), &format!("{selector} on the page, under no other element")).await;
        let at = self.eval(&measure).await;
        let (x, y) = match at.as_array().map(|a| (a[0].as_f64(), a[1].as_f64())) {
            Some((Some(x), Some(y))) => (x, y),
            _ => panic!("{selector} moved under another element"),
        };
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            )
            .await;
        }
    }

    /// A PNG of the page at `width` CSS pixels (the whole page, or the first 900 px when not
    /// `whole`), written to `path`.
    pub async fn screenshot(&mut self, width: u32, path: &Path, whole: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}),
        )
        .await;
        let shot = self.call("Page.captureScreenshot", json!({"format": "png", "captureBeyondViewport": whole})).await;
        let data = shot["data"].as_str().expect("screenshot data");
        let png = base64::engine::general_purpose::STANDARD.decode(data).expect("base64");
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        std::fs::write(path, png).expect("write the screenshot");
        self.call("Emulation.clearDeviceMetricsOverride", json!({})).await;
    }
}
