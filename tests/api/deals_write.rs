//! Putting a team's own deals in: `POST /api/deals` (validated like PATCH, 201 with the detail),
//! `POST /api/deals/import` (CSV, all or nothing, dry run, re-import by externalId, limits) and
//! `GET /api/deals/export` — every refusal in the error envelope, nothing half-written.

use gtms::domain::Role;
use reqwest::Method;
use serde_json::{Value, json};

use crate::envelope::assert_envelope;
use crate::helpers::{TestApp, spawn_app};

const HEADER: &str = "accountName,value,stage,type,rep,champion,closeDate,probability,nextStep,externalId";

fn new_deal() -> Value {
    json!({
        "accountName": "Initech", "value": 48000, "stage": "qualification", "type": "new-business",
        "rep": "Dana Reyes", "champion": "Bill Lumbergh", "closeDate": "2027-03-31", "probability": 25,
        "companySlug": "apple"
    })
}

async fn create(app: &TestApp, token: &str, body: &Value) -> reqwest::Response {
    app.authed(Method::POST, "/api/deals", token).json(body).send().await.expect("create")
}

async fn import(app: &TestApp, token: &str, query: &str, csv: String) -> reqwest::Response {
    app.authed(Method::POST, &format!("/api/deals/import{query}"), token)
        .header("content-type", "text/csv")
        .body(csv)
        .send()
        .await
        .expect("import")
}

pub async fn deal_count(app: &TestApp, token: &str) -> u64 {
    let res = app.authed(Method::GET, "/api/deals", token).send().await.expect("list");
    res.json::<Value>().await.expect("json")["total"].as_u64().expect("total")
}

#[tokio::test]
async fn an_admin_creates_a_deal_and_it_is_listed_with_its_history() {
    let app = spawn_app().await;
    let admin = app.token(Role::Admin).await;
    let before = deal_count(&app, &admin).await;
    let res = create(&app, &admin, &new_deal()).await;
    assert_eq!(res.status(), 201);
    let location = res.headers()["location"].to_str().expect("location").to_owned();
    let deal: Value = res.json().await.expect("detail");
    assert_eq!(location, format!("/api/deals/{}", deal["id"].as_str().expect("id")));
    assert_eq!((deal["stage"].clone(), deal["probability"].clone()), (json!("qualification"), json!(25)));
    assert_eq!(deal["companySlug"], "apple");
    assert_eq!(deal["history"][0]["action"], "created in qualification");
    assert_eq!(deal_count(&app, &admin).await, before + 1);
    let fetched = app.authed(Method::GET, &location, &admin).send().await.expect("get");
    assert_eq!(fetched.json::<Value>().await.expect("json"), deal);

    let mut closed = new_deal();
    closed["stage"] = json!("closed-won");
    let won: Value = create(&app, &admin, &closed).await.json().await.expect("json");
    assert_eq!(won["probability"], 100, "a closed deal's probability is its stage's");
    app.stop().await;
}

#[tokio::test]
async fn bad_deals_are_refused_and_nothing_is_written() {
    let app = spawn_app().await;
    let admin = app.token(Role::Admin).await;
    let before = deal_count(&app, &admin).await;
    let with = |key: &str, value: Value| {
        let mut body = new_deal();
        body[key] = value;
        body
    };
    let without = |key: &str| {
        let mut body = new_deal();
        body.as_object_mut().expect("object").remove(key);
        body
    };
    for (body, what) in [
        (with("stage", json!("won")), "won"),
        (with("value", json!(-5)), "-5"),
        (with("value", json!("48000")), "48000"),
        (with("value", json!(1_000_000_000_001u64)), "value"),
        (with("probability", json!(101)), "percent"),
        (with("closeDate", json!("2027-02-30")), "date"),
        (with("accountName", json!("   ")), "accountName"),
        (with("rep", json!("x".repeat(201))), "rep"),
        (with("champion", json!("tab\there")), "champion"),
        (with("owner", json!("Dana")), "owner"),
        (without("accountName"), "accountName"),
    ] {
        let res = create(&app, &admin, &body).await;
        let envelope = assert_envelope(res, 400, "bad_request").await;
        assert!(envelope["message"].as_str().expect("message").contains(what), "{what}: {envelope}");
    }
    let unknown = create(&app, &admin, &with("companySlug", json!("no-such-company"))).await;
    let envelope = assert_envelope(unknown, 404, "not_found").await;
    assert!(envelope["message"].as_str().expect("message").contains("companySlug"), "{envelope}");
    let res = app
        .authed(Method::POST, "/api/deals", &admin)
        .body("{\"accountName\": ")
        .header("content-type", "application/json");
    assert_envelope(res.send().await.expect("send"), 400, "bad_request").await;
    let res = app
        .authed(Method::POST, "/api/deals", &admin)
        .body(new_deal().to_string())
        .header("content-type", "text/plain");
    assert_envelope(res.send().await.expect("send"), 415, "unsupported_media_type").await;
    let huge = with("nextStep", json!("x".repeat(70 * 1024)));
    assert_envelope(create(&app, &admin, &huge).await, 413, "payload_too_large").await;

    let viewer = app.token(Role::Viewer).await;
    assert_envelope(create(&app, &viewer, &new_deal()).await, 403, "forbidden").await;
    let res = app.client.post(app.url("/api/deals")).json(&new_deal()).send().await.expect("send");
    assert_envelope(res, 401, "unauthorized").await;

    let first = create(&app, &admin, &with("externalId", json!("crm-42"))).await;
    assert_eq!(first.status(), 201);
    assert_envelope(create(&app, &admin, &with("externalId", json!("crm-42"))).await, 409, "conflict").await;
    assert_eq!(deal_count(&app, &admin).await, before + 1, "only the one good deal was written");
    app.stop().await;
}

#[tokio::test]
async fn an_import_is_all_or_nothing_and_lists_every_bad_row() {
    let app = spawn_app().await;
    let admin = app.token(Role::Admin).await;
    let before = deal_count(&app, &admin).await;
    let good = "Globex,120000,proposal,expansion,Dana Reyes,Hank Scorpio,2027-01-31,,Send the order form,crm-1";
    let bad = "\"Umbrella, Corp\",12.5,won,expansion,Dana Reyes,,2027-02-30,,,crm-2";
    let res = import(&app, &admin, "", format!("{HEADER}\n{good}\n{bad}\n")).await;
    let envelope = assert_envelope(res, 422, "unprocessable").await;
    let errors = envelope["errors"].as_array().expect("errors");
    let named: Vec<(u64, &str)> =
        errors.iter().map(|e| (e["row"].as_u64().expect("row"), e["column"].as_str().expect("column"))).collect();
    assert_eq!(named, [(3, "value"), (3, "stage"), (3, "closeDate")]);
    assert!(errors.iter().all(|e| e["reason"].as_str().is_some_and(|r| !r.is_empty())));
    assert_eq!(deal_count(&app, &admin).await, before, "one bad row imports nothing");

    let fixed = "\"Umbrella, Corp\",12500,negotiation,expansion,Dana Reyes,,2027-02-28,,,crm-2";
    let csv = format!("{HEADER}\r\n{good}\r\n{fixed}\r\n");
    let dry: Value = import(&app, &admin, "?dryRun=true", csv.clone()).await.json().await.expect("json");
    assert_eq!((dry["dryRun"].clone(), dry["created"].clone()), (json!(true), json!(2)));
    assert_eq!(deal_count(&app, &admin).await, before, "a dry run writes nothing");
    let res = import(&app, &admin, "", csv.clone()).await;
    assert_eq!(res.status(), 200);
    let done: Value = res.json().await.expect("json");
    assert_eq!((done["created"].clone(), done["updated"].clone()), (json!(2), json!(0)));
    assert_eq!(done["deals"][1]["accountName"], "Umbrella, Corp");
    assert_eq!(deal_count(&app, &admin).await, before + 2);

    let again: Value = import(&app, &admin, "", csv).await.json().await.expect("json");
    assert_eq!(
        (again["created"].clone(), again["unchanged"].clone()),
        (json!(0), json!(2)),
        "a re-import never duplicates"
    );
    let moved = format!("{HEADER}\n{}\n", good.replace("proposal", "negotiation"));
    let moved: Value = import(&app, &admin, "", moved).await.json().await.expect("json");
    assert_eq!(moved["updated"], 1);
    let id = moved["deals"][0]["id"].as_str().expect("id");
    let detail = app.get_json(&admin, &format!("/api/deals/{id}")).await;
    let actions: Vec<&str> =
        detail["history"].as_array().expect("history").iter().filter_map(|h| h["action"].as_str()).collect();
    assert_eq!(actions, ["imported in proposal", "moved to negotiation"]);
    let backwards = format!("{HEADER}\n{good}\n");
    let res = import(&app, &admin, "", backwards).await;
    let envelope = assert_envelope(res, 422, "unprocessable").await;
    assert_eq!(envelope["errors"][0]["column"], "stage", "a re-import follows the stage rules");
    app.stop().await;
}

#[tokio::test]
async fn import_refusals_each_have_their_envelope() {
    let app = spawn_app().await;
    let admin = app.token(Role::Admin).await;
    let before = deal_count(&app, &admin).await;
    let header = assert_envelope(
        import(&app, &admin, "", "accountName,value,owner\nA,1,B\n".into()).await,
        422,
        "unprocessable",
    )
    .await;
    let columns: Vec<&str> =
        header["errors"].as_array().expect("errors").iter().filter_map(|e| e["column"].as_str()).collect();
    assert!(columns.contains(&"owner") && columns.contains(&"stage"), "{columns:?}");
    let twice =
        format!("{HEADER}\nA,1,proposal,expansion,R,,2027-01-31,,,x\nB,2,proposal,expansion,R,,2027-01-31,,,x\n");
    let dup = assert_envelope(import(&app, &admin, "", twice).await, 422, "unprocessable").await;
    assert_eq!(dup["errors"][0]["row"], 3);
    let mut many = format!("{HEADER}\n");
    for i in 0..=gtms::deals::IMPORT_ROWS {
        many.push_str(&format!("A{i},1,proposal,expansion,R,,2027-01-31,,,\n"));
    }
    let limit = assert_envelope(import(&app, &admin, "", many).await, 422, "unprocessable").await;
    assert_eq!(limit["errors"][0]["row"], gtms::deals::IMPORT_ROWS + 2, "10,001 rows: refused at the first extra one");
    assert_envelope(import(&app, &admin, "", String::new()).await, 422, "unprocessable").await;
    assert_envelope(import(&app, &admin, "", "a,\"open\n".into()).await, 422, "unprocessable").await;
    let oversized = "x".repeat(gtms::deals::IMPORT_BYTES + 1);
    assert_envelope(import(&app, &admin, "", oversized).await, 413, "payload_too_large").await;
    let res =
        app.authed(Method::POST, "/api/deals/import", &admin).header("content-type", "application/json").body("[]");
    assert_envelope(res.send().await.expect("send"), 415, "unsupported_media_type").await;
    let res = app
        .authed(Method::POST, "/api/deals/import", &admin)
        .header("content-type", "text/csv")
        .body(vec![0xff, 0xfe, 0x00]);
    assert_envelope(res.send().await.expect("send"), 400, "bad_request").await;
    assert_envelope(import(&app, &admin, "?dryRun=maybe", format!("{HEADER}\n")).await, 400, "bad_request").await;
    let viewer = app.token(Role::Viewer).await;
    let good = format!("{HEADER}\nA,1,proposal,expansion,R,,2027-01-31,,,\n");
    assert_envelope(import(&app, &viewer, "", good).await, 403, "forbidden").await;
    assert_eq!(deal_count(&app, &admin).await, before, "no refusal wrote anything");
    app.stop().await;
}

#[tokio::test]
async fn the_export_reads_back_as_an_import_that_changes_nothing() {
    let app = spawn_app().await;
    let viewer = app.token(Role::Viewer).await;
    let res = app.authed(Method::GET, "/api/deals/export", &viewer).send().await.expect("export");
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/csv; charset=utf-8");
    assert!(res.headers()["content-disposition"].to_str().expect("disposition").contains("deals.csv"));
    let csv = res.text().await.expect("text");
    let total = deal_count(&app, &viewer).await;
    assert_eq!(csv.lines().count() as u64, total + 1, "a header and one line per deal");
    assert!(csv.starts_with("externalId,accountName,value,stage,type,rep,champion,closeDate,probability,nextStep\r\n"));
    let admin = app.token(Role::Admin).await;
    let again: Value = import(&app, &admin, "", csv).await.json().await.expect("json");
    assert_eq!((again["created"].clone(), again["updated"].clone()), (json!(0), json!(0)));
    assert_eq!(again["unchanged"], total);
    app.stop().await;
}

/// The list's filters, totals and the pipeline summary come from the deal index (issue 27):
/// every write moves them at once, and a restart rebuilds the index from the file.
#[tokio::test]
async fn the_indexed_list_and_summary_follow_every_write_and_a_restart() {
    let app = spawn_app().await;
    let admin = app.token(Role::Admin).await;
    let rep = "Quinn Indexer";
    let path = format!("/api/deals?rep={}&limit=1", rep.replace(' ', "%20"));
    let summary_of =
        |v: &Value, stage: &str| (v["byStage"][stage]["count"].as_u64(), v["byStage"][stage]["value"].as_u64());
    let before = app.get_json(&admin, "/api/deals/summary/pipeline").await;

    let mut body = new_deal();
    body["rep"] = json!(rep);
    body["stage"] = json!("prospecting");
    let first: Value = create(&app, &admin, &body).await.json().await.expect("json");
    let csv = format!("{HEADER}\nUmbrella,7000,prospecting,renewal,{rep},Alice,2027-05-01,10,Call,ext-index-1\n");
    assert_eq!(import(&app, &admin, "", csv).await.status(), 200);
    let page = app.get_json(&admin, &path).await;
    assert_eq!(page["total"].as_u64(), Some(2));
    let cursor = page["nextCursor"].as_str().expect("two deals, one per page");
    let rest = app.get_json(&admin, &format!("{path}&cursor={cursor}")).await;
    assert!(rest.get("nextCursor").is_none(), "the second page is the last");
    let ids = [&page["deals"][0]["id"], &rest["deals"][0]["id"]];
    assert!(ids[0].as_str() < ids[1].as_str() && ids.contains(&&first["id"]), "{ids:?}");

    let id = first["id"].as_str().expect("id");
    let moved = app.authed(Method::PATCH, &format!("/api/deals/{id}"), &admin).json(&json!({"stage": "qualification"}));
    assert_eq!(moved.send().await.expect("patch").status(), 200);
    let qualifying = app.get_json(&admin, &format!("{path}&stage=qualification")).await;
    assert_eq!((qualifying["total"].as_u64(), qualifying["deals"][0]["id"].clone()), (Some(1), first["id"].clone()));
    let after = app.get_json(&admin, "/api/deals/summary/pipeline").await;
    let (count, value) = summary_of(&before, "prospecting");
    assert_eq!(summary_of(&after, "prospecting"), (count.map(|c| c + 1), value.map(|v| v + 7000)), "the import");
    let (count, value) = summary_of(&before, "qualification");
    assert_eq!(summary_of(&after, "qualification"), (count.map(|c| c + 1), value.map(|v| v + 48000)), "the move");

    let app = app.restart().await;
    let admin = app.token(Role::Admin).await;
    assert_eq!(app.get_json(&admin, "/api/deals/summary/pipeline").await, after, "rebuilt from the file");
    let again = app.get_json(&admin, &format!("{path}&stage=qualification")).await;
    assert_eq!(again["deals"][0]["id"], first["id"]);
    app.stop().await;
}
