//! The circumstances of a win travel through the API: recorded with the hand, scored, kept by a
//! correction that does not mention them, and refused with their rule when the hand contradicts
//! them.

use super::*;

fn citations(hv: &Value, seat: usize) -> Vec<String> {
    hv["seats"][seat]["sheet"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["citation"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[actix_web::test]
async fn the_last_tile_is_scored_and_kong_upon_kong_without_kongs_is_refused() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let uri = format!("/api/tables/{table}/hands");

    // Kong upon Kong on a hand with no kong: refused (Code §122(f)), nothing recorded.
    let mut body = win(&format!("{table}-g1-h1"), "south");
    body["win_from"] = json!("loose-tile");
    body["circumstances"] = json!({"kong_upon_kong": true});
    let resp = test::call_service(&svc, post_json(&uri, Some(&t.token), body)).await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let err = body_json(resp).await;
    assert!(err.to_string().contains("§122(f)"), "{err}");

    // The 1 circle drawn as the last tile of the wall: §117(i)'s double, and Catching the Moon
    // from the Bottom of the Sea (§122(d)).
    let mut body = win(&format!("{table}-g1-h1"), "south");
    body["circumstances"] = json!({"last_tile": true});
    let resp = test::call_service(&svc, post_json(&uri, Some(&t.token), body)).await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let hand = body_json(resp).await["id"].as_str().unwrap().to_owned();
    let hv = hand_json(&svc, &hand).await;
    let cited = citations(&hv, 1);
    assert!(cited.contains(&"Code §117(i)".to_owned()), "{hv}");
    assert!(cited.contains(&"Code §122(d)".to_owned()), "{hv}");
    assert_eq!(hv["seats"][1]["sheet"]["total"], 1000);
}
