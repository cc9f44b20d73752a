//! Data files written by schema version 1 open under this binary: the records are written
//! here exactly as version 1 encoded them (one version byte, then bincode of the old layout)
//! into a real redb file, which `Store::open` then reads.

use redb::Database;
use serde::Serialize;

use super::Store;
use super::tables::{BRAIN_MESSAGES, BRAIN_THREADS, DEALS, INVITES};
use super::{ChatRecord, ThreadRecord, codec};
use crate::domain::{ChampionStatus, DealType, Role, Stage};

#[derive(Serialize)]
#[allow(dead_code)]
enum StageV1 {
    Prospecting,
    Qualification,
    Discovery,
    Proposal,
    Negotiation,
    ClosedWon,
    ClosedLost,
}

#[derive(Serialize)]
struct DealV1 {
    id: &'static str,
    account_name: &'static str,
    company_slug: Option<String>,
    value: u64,
    stage: StageV1,
    deal_type: DealType,
    rep: &'static str,
    champion: &'static str,
    champion_status: ChampionStatus,
    close_date: &'static str,
    probability: u8,
    next_step: &'static str,
    history: Vec<(&'static str, &'static str)>,
}

#[derive(Serialize)]
struct InviteV1 {
    id: &'static str,
    role: &'static str,
    name: &'static str,
    hash: &'static str,
    created_at: i64,
    revoked_at: Option<i64>,
    token_version: u32,
}

/// `value` as schema `version` encoded it: the version byte, then bincode of its layout.
fn at_version<T: Serialize>(version: u8, value: &T) -> Vec<u8> {
    let mut out = vec![version];
    out.extend(bincode::serde::encode_to_vec(value, bincode::config::standard()).expect("encode"));
    out
}

fn v1<T: Serialize>(value: &T) -> Vec<u8> {
    at_version(1, value)
}

fn deal(id: &'static str, stage: StageV1, history: Vec<(&'static str, &'static str)>) -> DealV1 {
    DealV1 {
        id,
        account_name: "Apple Inc.",
        company_slug: Some("apple".into()),
        value: 120_000,
        stage,
        deal_type: DealType::Expansion,
        rep: "Sam Rivera",
        champion: "Dana Okafor",
        champion_status: ChampionStatus::Engaged,
        close_date: "2027-01-15",
        probability: 40,
        next_step: "Schedule a call",
        history,
    }
}

#[tokio::test]
async fn a_version_1_file_with_discovery_deals_opens_and_they_become_qualification() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("v1.redb");
    {
        let db = Database::create(&path).expect("create");
        let txn = db.begin_write().expect("write");
        {
            let mut deals = txn.open_table(DEALS).expect("deals");
            let moved = vec![("2026-09-01", "moved to qualification"), ("2026-10-01", "moved to discovery")];
            for d in [deal("deal-001", StageV1::Discovery, moved), deal("deal-002", StageV1::ClosedLost, vec![])] {
                deals.insert(d.id, v1(&d).as_slice()).expect("insert");
            }
            let invite = InviteV1 {
                id: "0123456789ab",
                role: "viewer",
                name: "Pat",
                hash: "$argon2id$…",
                created_at: 1,
                revoked_at: None,
                token_version: 0,
            };
            txn.open_table(INVITES).expect("invites").insert(invite.id, v1(&invite).as_slice()).expect("insert");
        }
        txn.commit().expect("commit");
    }

    let store = Store::open(&path).expect("a version-1 file opens");
    let deals = store.deals().await.expect("deals decode");
    let stages: Vec<Stage> = deals.iter().map(|d| d.stage).collect();
    assert_eq!(stages, [Stage::Qualification, Stage::ClosedLost]);
    let actions: Vec<&str> = deals[0].history.iter().map(|h| h.action.as_str()).collect();
    assert_eq!(actions, ["moved to qualification", "moved to qualification"]);
    assert_eq!((deals[0].value, deals[0].close_date.as_str(), deals[0].probability), (120_000, "2027-01-15", 40));
    let invites = store.invites().await.expect("invites decode");
    assert_eq!(invites.iter().map(|i| (i.role, i.name.as_str())).collect::<Vec<_>>(), [(Role::Viewer, "Pat")]);

    // Rewritten records carry today's version and read back the same.
    let changed = store.update_deal("deal-001", Ok::<_, ()>).await.expect("update");
    assert!(matches!(changed, Some(Ok(_))));
    assert_eq!(store.deal("deal-001").await.expect("read").map(|d| d.stage), Some(Stage::Qualification));
}

/// Version 2 of an invite: the role as the enum, no team.
#[derive(Serialize)]
struct InviteV2 {
    id: &'static str,
    role: Role,
    name: &'static str,
    hash: &'static str,
    created_at: i64,
    revoked_at: Option<i64>,
    token_version: u32,
}

/// Version 2 of a deal is today's layout (six stages); it must not be read as version 1.
fn v2<T: Serialize>(value: &T) -> Vec<u8> {
    at_version(2, value)
}

#[tokio::test]
async fn a_version_2_file_opens_with_teamless_invites_and_its_deals_unchanged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("v2.redb");
    let deal = crate::store::DealRecord {
        id: "deal-007".into(),
        account_name: "Apple Inc.".into(),
        company_slug: None,
        value: 5,
        stage: Stage::Proposal,
        deal_type: DealType::NewBusiness,
        rep: "r".into(),
        champion: "c".into(),
        champion_status: ChampionStatus::Unknown,
        close_date: "2027-01-01".into(),
        probability: 10,
        next_step: "n".into(),
        history: vec![],
        external_id: None,
    };
    // Versions 2 and 3 wrote every field of today's deal but `external_id` (version 4).
    let d = &deal;
    let as_v2 = (
        &d.id,
        &d.account_name,
        &d.company_slug,
        d.value,
        d.stage,
        d.deal_type,
        &d.rep,
        &d.champion,
        d.champion_status,
        &d.close_date,
        d.probability,
        &d.next_step,
        &d.history,
    );
    {
        let db = Database::create(&path).expect("create");
        let txn = db.begin_write().expect("write");
        {
            txn.open_table(DEALS).expect("deals").insert("deal-007", v2(&as_v2).as_slice()).expect("insert");
            let invite = InviteV2 {
                id: "ba9876543210",
                role: Role::Admin,
                name: "Ada",
                hash: "$argon2id$…",
                created_at: 2,
                revoked_at: Some(3),
                token_version: 1,
            };
            txn.open_table(INVITES).expect("invites").insert(invite.id, v2(&invite).as_slice()).expect("insert");
        }
        txn.commit().expect("commit");
    }

    let store = Store::open(&path).expect("a version-2 file opens");
    let invites = store.invites().await.expect("invites decode");
    let got: Vec<_> =
        invites.iter().map(|i| (i.role, i.name.as_str(), i.revoked_at, i.token_version, &i.team)).collect();
    assert_eq!(got, [(Role::Admin, "Ada", Some(3), 1, &None)]);
    assert_eq!(store.deal("deal-007").await.expect("read"), Some(deal.clone()), "a v2 proposal stays a proposal");

    let mut with_team = invites[0].clone();
    with_team.team = Some(crate::domain::TeamId::parse("sales").expect("team"));
    store.insert_invite(with_team.clone()).await.expect("write v3");
    assert_eq!(store.invites().await.expect("read"), [with_team], "a v3 invite keeps its team");
}

#[tokio::test]
async fn chat_messages_of_version_4_read_with_no_token_count() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("v4.redb");
    // Versions 1 to 4 wrote (role, content, at_ms, unanswered).
    let question = ("user", "What changed at Apple?", 10_i64, false);
    let answer = ("assistant", "Nothing new.", 11_i64, false);
    {
        let db = Database::create(&path).expect("create");
        let txn = db.begin_write().expect("write");
        {
            let mut messages = txn.open_table(BRAIN_MESSAGES).expect("messages");
            messages.insert("u1/0000000000", at_version(4, &question).as_slice()).expect("insert");
            messages.insert("u1/0000000001", at_version(4, &answer).as_slice()).expect("insert");
            let thread = ThreadRecord { conversation_id: "c-1".into(), next_seq: 2 };
            let thread = codec::encode(&thread).expect("encode");
            txn.open_table(BRAIN_THREADS).expect("threads").insert("u1", thread.as_slice()).expect("insert");
        }
        txn.commit().expect("commit");
    }
    let store = Store::open(&path).expect("a version-4 file opens");
    let (_, messages) = store.chat_thread("u1").await.expect("thread decodes");
    let record = |(role, content, at_ms, unanswered): (&str, &str, i64, bool)| ChatRecord {
        role: role.into(),
        content: content.into(),
        at_ms,
        unanswered,
        tokens_used: 0,
    };
    assert_eq!(messages, [record(question), record(answer)]);
}
