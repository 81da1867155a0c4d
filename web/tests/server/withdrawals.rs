//! A correction withdrawn (issue 25): a correction of a correction, which only a raw append or
//! an import records, is folded by the table as the read model folds it — the hand's page, its
//! history and the table load, the settlement the withdrawn correction took out counts again,
//! and the table corrects that settlement afterwards.

use ledger::event::CorrectionRecorded;
use ledger::{ExpectedVersion, NewEvent, StreamId};

use super::*;

#[actix_web::test]
async fn a_withdrawn_correction_is_folded_by_the_table_and_its_history_marks_what_it_brought() {
    let mut t = spawn();
    t.forged = true; // it writes behind the service's back
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (hand, version) = record_discard_win(&svc, &t.token, &table).await;
    let stream = StreamId::hand(&hand).unwrap();
    let events = |t: &TestApp| {
        t.state
            .read_now(|l| Ok(l.read_stream(&stream, 1)?))
            .unwrap()
    };
    let original = events(&t)
        .iter()
        .find(|e| matches!(e.event, ledger::Event::SettlementRecorded(_)))
        .unwrap()
        .event_id;

    // North is made the discarder by a correction,
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/hands/{hand}/corrections"),
            Some(&t.token),
            json!({"version": version, "reason": "North gave the tile", "discarder": "north"}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let first = events(&t)
        .iter()
        .rfind(|e| matches!(e.event, ledger::Event::CorrectionRecorded(_)))
        .unwrap()
        .event_id;
    assert_eq!(
        hand_json(&svc, &hand).await["win"],
        "South won on 1p (discard from North)"
    );

    // and that correction is withdrawn by a correction of it.
    t.state
        .write_now(|l| {
            let v = l.stream_version(&stream)?;
            let withdraw = NewEvent::new(CorrectionRecorded {
                supersedes: first,
                reason: "the correction was itself mistaken".into(),
            });
            l.append(
                &stream,
                ExpectedVersion::Exact(v),
                vec![withdraw],
                &OfficialId::new("admin").unwrap(),
            )?;
            Ok(())
        })
        .unwrap();

    // The win as first recorded counts again, on the page and at the table.
    let hv = hand_json(&svc, &hand).await;
    assert_eq!(hv["win"], "South won on 1p (discard from West)", "{hv}");
    assert!(hv["seats"][1]["winner"].as_bool().unwrap(), "{hv}");
    assert_eq!(hv["corrections"], 2);
    let recorded: Vec<_> = events(&t);
    let superseded = |id: uuid::Uuid| {
        let version = recorded.iter().find(|e| e.event_id == id).unwrap().version;
        hv["history"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["version"] == version)
            .unwrap()["superseded"]
            .as_bool()
            .unwrap()
    };
    assert!(!superseded(original), "{hv}");
    assert!(superseded(first), "{hv}");
    let brought = recorded
        .iter()
        .rfind(|e| matches!(e.event, ledger::Event::SettlementRecorded(_)))
        .unwrap()
        .event_id;
    assert!(superseded(brought), "{hv}");
    let tv = get_json(&svc, &format!("/api/tables/{table}")).await;
    assert_eq!(tv["hands"].as_array().unwrap().len(), 1, "{tv}");

    // The table corrects the settlement in force again: the original one.
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/hands/{hand}/corrections"),
            Some(&t.token),
            json!({"version": hv["version"], "reason": "drawn after all",
                   "win_from": "wall", "discarder": null}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let last = events(&t)
        .into_iter()
        .rev()
        .find_map(|e| match e.event {
            ledger::Event::CorrectionRecorded(c) => Some(c.supersedes),
            _ => None,
        })
        .unwrap();
    assert_eq!(last, original);
    assert_eq!(
        hand_json(&svc, &hand).await["win"],
        "South won on 1p (wall)"
    );
    let audit = t.state.read_now(|l| Ok(l.audit()?)).unwrap();
    assert!(audit.is_clean(), "{audit}");
}
