//! Accounts, sessions, roles, CSRF and throttling, against the real server on both databases.

use assay_tests::*;

both_backends! {
    async fn login_sets_a_http_only_session_cookie_and_rotates_it(server) {
        let browser = server.browser();
        let anonymous = browser.call("current_user", &[]).await;
        assert_eq!(anonymous.status, 200);
        assert_eq!(anonymous.json(), serde_json::Value::Null);

        let first = browser.login(ANNOTATOR).await;
        let cookie = first.set_cookies.iter().find(|c| c.starts_with("assay_session=")).expect("session cookie");
        assert!(cookie.contains("HttpOnly"), "{cookie}");
        assert!(cookie.contains("SameSite=Lax"), "{cookie}");
        assert!(!cookie.contains("Secure"), "plain http on loopback: {cookie}");
        let me = browser.call("current_user", &[]).await.json();
        assert_eq!(me["email"], "annotator@demo.assay");
        assert_eq!(me["role"], "Annotator");

        // Signing in again from the same browser gives a new session id and ends the old one.
        let second = browser.login(ANNOTATOR).await;
        let cookie2 = second.set_cookies.iter().find(|c| c.starts_with("assay_session=")).expect("session cookie");
        let token = |c: &str| c.split(';').next().unwrap_or_default().to_string();
        assert_ne!(token(cookie), token(cookie2));
        let old = reqwest::Client::new()
            .post(format!("{}/api/current_user", server.base))
            .header("origin", &server.base)
            .header("cookie", token(cookie))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(old, "null", "the session from before the second login must be revoked");
    }

    async fn unknown_account_and_wrong_password_get_the_same_answer(server) {
        let browser = server.browser();
        let unknown = browser.call("login", &[("email", "nobody@demo.assay"), ("password", "whatever-password")]).await;
        let wrong = browser.call("login", &[("email", ANNOTATOR.0), ("password", "wrong-password!")]).await;
        assert_eq!(unknown.status, 401);
        assert_eq!(wrong.status, 401);
        assert_eq!(unknown.body, wrong.body);
        assert!(unknown.body.contains("Email or password is incorrect."), "{}", unknown.body);
        assert!(unknown.set_cookies.iter().all(|c| !c.starts_with("assay_session=")));
    }

    async fn every_admin_function_checks_the_role_on_the_server(server) {
        let anonymous = server.browser();
        assert_eq!(anonymous.call("list_users", &[]).await.status, 401);

        for account in [ANNOTATOR, RESEARCHER, ORGANIZER] {
            let b = server.browser();
            b.login(account).await;
            let list = b.call("list_users", &[]).await;
            assert_eq!(list.status, 403, "{} must not list accounts: {}", account.0, list.body);
            let invite = b.call("invite_user", &[("email", "x@y.org"), ("role", "admin")]).await;
            assert_eq!(invite.status, 403);
            let promote = b.call("set_user_role", &[("user_id", "1"), ("role", "admin")]).await;
            assert_eq!(promote.status, 403);
        }

        let admin = server.browser();
        admin.login(ADMIN).await;
        let list = admin.call("list_users", &[]).await;
        assert_eq!(list.status, 200, "{}", list.body);
        let emails: Vec<String> = list.json().as_array().unwrap().iter().map(|u| u["email"].as_str().unwrap().to_string()).collect();
        assert_eq!(emails.len(), 4, "{emails:?}");
        assert!(emails.contains(&ANNOTATOR.0.to_string()));
    }

    async fn cross_site_requests_are_refused(server) {
        let evil = reqwest::Client::new()
            .post(format!("{}/api/login", server.base))
            .header("origin", "http://evil.example")
            .form(&[("email", ADMIN.0), ("password", ADMIN.1)])
            .send()
            .await
            .unwrap();
        assert_eq!(evil.status().as_u16(), 403);
        assert!(evil.headers().get_all("set-cookie").iter().next().is_none());

        // A signed-in browser tricked into posting from another site: refused, nothing changes.
        let admin = server.browser();
        admin.login(ADMIN).await;
        let forged = admin
            .client
            .post(format!("{}/api/invite_user", server.base))
            .header("origin", "http://evil.example")
            .form(&[("email", "mallory@evil.example"), ("role", "admin")])
            .send()
            .await
            .unwrap();
        assert_eq!(forged.status().as_u16(), 403);
        let forged_no_origin = reqwest::Client::new()
            .post(format!("{}/api/list_users", server.base))
            .header("cookie", "assay_session=whatever")
            .send()
            .await
            .unwrap();
        assert_eq!(forged_no_origin.status().as_u16(), 403);
        // The same request from the page works.
        let ok = admin.call("invite_user", &[("email", "carol@example.org"), ("role", "annotator")]).await;
        assert_eq!(ok.status, 200, "{}", ok.body);
    }

    async fn repeated_failures_throttle_the_account(server) {
        let browser = server.browser();
        for _ in 0..5 {
            let a = browser.call("login", &[("email", ORGANIZER.0), ("password", "not-the-password")]).await;
            assert_eq!(a.status, 401);
        }
        // Even the right password is refused while throttled, with a message that says so.
        let a = browser.call("login", &[("email", ORGANIZER.0), ("password", ORGANIZER.1)]).await;
        assert_eq!(a.status, 429, "{}", a.body);
        assert!(a.body.contains("Too many failed sign-ins"), "{}", a.body);
        // Another account from the same address is not yet throttled.
        browser.login(RESEARCHER).await;
    }

    // Issue 17, finding 1: the failures used to be read before any was written, so 40
    // simultaneous wrong passwords all got a password check (and a right one could slip through
    // a burst). Now each attempt is counted before its check, one at a time per account.
    async fn a_burst_of_sign_ins_cannot_outrun_the_throttle(server) {
        let attempts: Vec<_> = (0..40)
            .map(|_| {
                let b = server.browser();
                tokio::spawn(async move { b.call("login", &[("email", ORGANIZER.0), ("password", "not-the-password")]).await.status })
            })
            .collect();
        let mut statuses = Vec::new();
        for a in attempts {
            statuses.push(a.await.unwrap());
        }
        let checked = statuses.iter().filter(|s| **s == 401).count();
        let throttled = statuses.iter().filter(|s| **s == 429).count();
        assert_eq!((checked, throttled), (5, 35), "{statuses:?}");
        let right = server.browser().call("login", &[("email", ORGANIZER.0), ("password", ORGANIZER.1)]).await;
        assert_eq!(right.status, 429, "{}", right.body);
    }

    // Issue 17, finding 3: five wrong passwords from one address slow that address for the
    // account, not the account for everyone: its owner signs in from elsewhere at once.
    async fn wrong_passwords_from_one_address_do_not_lock_the_account_for_others(server) {
        let elsewhere: std::net::IpAddr = "127.0.0.2".parse().unwrap();
        let attacker = server.browser_from(elsewhere);
        for _ in 0..5 {
            assert_eq!(attacker.call("login", &[("email", ORGANIZER.0), ("password", "guess")]).await.status, 401);
        }
        // Brute force from one address is slowed: the next attempt waits (the first wait, 15 s).
        let (status, wait) = login_answer(&attacker, ORGANIZER.0, ORGANIZER.1).await;
        assert_eq!(status, 429);
        assert!(wait.is_some_and(|w| (10..=15).contains(&w)), "{wait:?}");
        server.browser().login(ORGANIZER).await;
        // The owner's sign-in does not wipe the attacker's failures: that address still waits.
        assert_eq!(login_answer(&attacker, ORGANIZER.0, "guess").await.0, 429);
    }

    // Issue 38: five wrong passwords from each of 11 addresses locked any account, the admin's
    // included, for 15 minutes: the right password from a 12th address got 429. Now guesses from
    // many addresses slow the account (a bounded wait), never lock it.
    async fn guesses_from_many_addresses_slow_the_admin_but_never_lock_them_out(server) {
        let mut slowed = 0;
        for n in 2..13u8 {
            let guesser = server.browser_from(std::net::IpAddr::from([127, 0, 0, n]));
            for _ in 0..5 {
                match login_answer(&guesser, ADMIN.0, "guess").await {
                    (401, _) => {}
                    (429, _) => slowed += 1,
                    other => panic!("a guess from 127.0.0.{n}: {other:?}"),
                }
            }
        }
        assert!(slowed > 0, "guesses beyond 50 from everywhere are slowed");
        let owner = server.browser_from(std::net::IpAddr::from([127, 0, 0, 13]));
        let started = std::time::Instant::now();
        loop {
            match login_answer(&owner, ADMIN.0, ADMIN.1).await {
                (200, _) => break,
                (429, Some(wait)) => {
                    assert!(wait <= 30, "the owner waits at most 30 s, not {wait} s");
                    assert!(started.elapsed() < std::time::Duration::from_secs(40), "the owner gets in after a bounded wait");
                    tokio::time::sleep(std::time::Duration::from_secs(wait)).await;
                }
                other => panic!("the admin's right password from a 12th address: {other:?}"),
            }
        }
        assert_eq!(owner.call("current_user", &[]).await.json()["email"], ADMIN.0);
    }

    // Issue 38: an admin clears an account's failed sign-ins (the accounts page and the server
    // function); the delays end at once. Nobody else may.
    async fn an_admin_can_clear_an_accounts_failed_sign_ins(server) {
        let browser = server.browser();
        for _ in 0..5 {
            assert_eq!(browser.call("login", &[("email", ORGANIZER.0), ("password", "guess")]).await.status, 401);
        }
        assert_eq!(login_answer(&browser, ORGANIZER.0, ORGANIZER.1).await.0, 429);
        let admin = server.browser_from("127.0.0.3".parse().unwrap());
        admin.login(ADMIN).await;
        let (id, _) = account(&admin, ORGANIZER.0).await;
        let listed = admin.call("list_users", &[]).await.json();
        let row = listed.as_array().unwrap().iter().find(|u| u["email"] == ORGANIZER.0).unwrap().clone();
        assert_eq!(row["failed_sign_ins"], 5, "{row}");
        let page = admin.get("/admin/users").await;
        assert!(page.body.contains("Clear failed sign-ins"), "the accounts page offers the unlock");
        // Not by anyone but an admin.
        let researcher = server.browser_from("127.0.0.4".parse().unwrap());
        researcher.login(RESEARCHER).await;
        assert_eq!(researcher.call("clear_failed_sign_ins", &[("user_id", &id)]).await.status, 403);
        assert_eq!(server.browser_from("127.0.0.5".parse().unwrap()).call("clear_failed_sign_ins", &[("user_id", &id)]).await.status, 401);
        assert_eq!(login_answer(&browser, ORGANIZER.0, ORGANIZER.1).await.0, 429, "still slowed");
        let cleared = admin.call("clear_failed_sign_ins", &[("user_id", &id)]).await;
        assert_eq!((cleared.status, cleared.body.as_str()), (200, "5"));
        assert_eq!(login_answer(&browser, ORGANIZER.0, ORGANIZER.1).await.0, 200, "cleared: the right password gets in at once");
    }

    async fn invitation_links_create_accounts_once(server) {
        let admin = server.browser();
        admin.login(ADMIN).await;
        let link = admin.call("invite_user", &[("email", "Dana@Example.org"), ("role", "researcher")]).await;
        assert_eq!(link.status, 200, "{}", link.body);
        let url = link.json()["url"].as_str().unwrap().to_string();
        assert!(url.starts_with(&format!("{}/invite/", server.base)), "{url}");
        let token = url.rsplit('/').next().unwrap().to_string();

        let page = server.browser().get(&format!("/invite/{token}")).await;
        assert_eq!(page.status, 200);
        assert!(page.body.contains("dana@example.org"), "the invitation page names the email");

        let dana = server.browser();
        let short = dana.call("accept_invitation", &[("token", &token), ("name", "Dana"), ("password", "short")]).await;
        assert_eq!(short.status, 400);
        assert!(short.body.contains("at least 10 characters"), "{}", short.body);
        let ok = dana.call("accept_invitation", &[("token", &token), ("name", "Dana"), ("password", "a long enough password")]).await;
        assert_eq!(ok.status, 200, "{}", ok.body);
        let me = dana.call("current_user", &[]).await.json();
        assert_eq!(me["role"], "Researcher");
        assert_eq!(me["name"], "Dana");

        let again = server.browser().call("accept_invitation", &[("token", &token), ("name", "Eve"), ("password", "another long password")]).await;
        assert_eq!(again.status, 400);
        assert!(again.body.contains("used already"), "{}", again.body);
        let bogus = server.browser().call("accept_invitation", &[("token", "forged"), ("name", "Eve"), ("password", "another long password")]).await;
        assert_eq!(bogus.status, 400);
    }

    async fn roles_can_be_changed_and_logout_revokes_the_session(server) {
        let admin = server.browser();
        admin.login(ADMIN).await;
        let users = admin.call("list_users", &[]).await.json();
        let annotator_id = users.as_array().unwrap().iter().find(|u| u["email"] == ANNOTATOR.0).unwrap()["id"].as_i64().unwrap();

        let annotator = server.browser();
        annotator.login(ANNOTATOR).await;
        let r = admin.call("set_user_role", &[("user_id", &annotator_id.to_string()), ("role", "organizer")]).await;
        assert_eq!(r.status, 200, "{}", r.body);
        // The role change signs the account out everywhere; signing in again shows the new role.
        assert_eq!(annotator.call("current_user", &[]).await.json(), serde_json::Value::Null);
        annotator.login(ANNOTATOR).await;
        assert_eq!(annotator.call("current_user", &[]).await.json()["role"], "Organizer");

        // The last admin cannot be demoted.
        let admin_id = users.as_array().unwrap().iter().find(|u| u["email"] == ADMIN.0).unwrap()["id"].as_i64().unwrap();
        let r = admin.call("set_user_role", &[("user_id", &admin_id.to_string()), ("role", "annotator")]).await;
        assert_eq!(r.status, 400);
        assert!(r.body.contains("last administrator"), "{}", r.body);

        let out = annotator.call("logout", &[]).await;
        assert_eq!(out.status, 200);
        assert!(out.set_cookies.iter().any(|c| c.starts_with("assay_session=;") && c.contains("Max-Age=0")));
        assert_eq!(annotator.call("current_user", &[]).await.json(), serde_json::Value::Null);
    }

    async fn pages_render_on_the_server_for_each_role(server) {
        let anonymous = server.browser();
        let login_page = anonymous.get("/login").await;
        assert_eq!(login_page.status, 200);
        assert!(login_page.body.contains("<form") && login_page.body.contains("name=\"password\""));
        assert!(login_page.body.contains("action=\"/api/login\""), "the login form posts without JavaScript");
        assert_eq!(anonymous.get("/no/such/page").await.status, 404);

        let organizer = server.browser();
        organizer.login(ORGANIZER).await;
        let home = organizer.get("/").await;
        assert!(home.body.contains("data-role=\"organizer\""), "{}", home.body);
        // `serve --demo` seeds a demo campaign, which the organizer's home lists.
        assert!(home.body.contains("Demo: DA adequacy"), "{}", home.body);
    }

    async fn plain_form_login_without_javascript_redirects(server) {
        let browser = server.browser();
        let ok = browser
            .client
            .post(format!("{}/api/login", server.base))
            .header("accept", "text/html")
            .header("referer", format!("{}/login", server.base))
            .form(&[("email", ANNOTATOR.0), ("password", ANNOTATOR.1)])
            .send()
            .await
            .unwrap();
        assert_eq!(ok.status().as_u16(), 302);
        assert_eq!(ok.headers()["location"], "/");
        let bad = browser
            .client
            .post(format!("{}/api/login", server.base))
            .header("accept", "text/html")
            .header("referer", format!("{}/login", server.base))
            .form(&[("email", ANNOTATOR.0), ("password", "wrong-password")])
            .send()
            .await
            .unwrap();
        assert_eq!(bad.status().as_u16(), 302);
        let location = bad.headers()["location"].to_str().unwrap().to_string();
        assert!(location.starts_with("/login?error="), "{location}");
        let page = browser.get(&location).await;
        assert!(page.body.contains("Email or password is incorrect."));
    }

    // Issue 38: a page that needs an account, asked for with no session, an expired or a
    // tampered one, rendered its shell with "Please sign in." three times and no way on. Now:
    // 401, the message once, and a sign-in link that leads back to the page asked for.
    async fn a_page_without_a_session_says_sign_in_once_and_leads_back(server) {
        let page = "/campaigns/1/results?per_segment=true";
        let link = "href=\"/login?next=%2Fcampaigns%2F1%2Fresults%3Fper_segment%3Dtrue\"";
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        // An expired session: signed in, then the session is gone (signed out elsewhere).
        let expired = server.browser();
        let cookie = expired.login(RESEARCHER).await.set_cookies.iter().find(|c| c.starts_with("assay_session=")).expect("a session cookie").clone();
        let cookie = cookie.split(';').next().unwrap().to_string();
        expired.call("logout", &[]).await;
        for (what, sent) in [("no session", None), ("a tampered session", Some("assay_session=tampered".to_string())), ("an ended session", Some(cookie))] {
            for path in [page, "/campaigns", "/account/tokens", "/admin/users", "/studies/1"] {
                let mut req = client.get(format!("{}{path}", server.base));
                if let Some(c) = &sent {
                    req = req.header("cookie", c);
                }
                let r = req.send().await.unwrap();
                let status = r.status().as_u16();
                let body = r.text().await.unwrap();
                assert_eq!(status, 401, "{path} with {what}: {body}");
                assert_eq!(body.matches("Please sign in.").count(), 1, "{path} with {what}: the message once: {body}");
                assert!(body.contains("/login?next="), "{path} with {what}: a way on: {body}");
            }
            let r = client.get(format!("{}{page}", server.base)).send().await.unwrap();
            assert!(r.text().await.unwrap().contains(link), "the link carries the page and its query");
        }
        // The sign-in page keeps the return path, and signing in leads there.
        let browser = server.browser();
        let login = browser.get("/login?next=%2Fcampaigns%2F1%2Fresults%3Fper_segment%3Dtrue").await;
        assert!(login.body.contains("name=\"next\" value=\"/campaigns/1/results?per_segment=true\""), "{}", login.body);
        let signed_in = browser
            .client
            .post(format!("{}/api/login", server.base))
            .header("accept", "text/html")
            .form(&[("email", RESEARCHER.0), ("password", RESEARCHER.1), ("next", "/campaigns/1/results?per_segment=true")])
            .send()
            .await
            .unwrap();
        assert_eq!(signed_in.status().as_u16(), 302);
        assert_eq!(signed_in.headers()["location"], "/campaigns/1/results?per_segment=true");
        // A return path elsewhere leads to the start page.
        let elsewhere = server
            .browser()
            .client
            .post(format!("{}/api/login", server.base))
            .header("accept", "text/html")
            .form(&[("email", RESEARCHER.0), ("password", RESEARCHER.1), ("next", "//evil.example/")])
            .send()
            .await
            .unwrap();
        assert_eq!(elsewhere.headers()["location"], "/");
        // The pages everyone may open are not gated.
        assert_eq!(client.get(format!("{}/login", server.base)).send().await.unwrap().status().as_u16(), 200);
        assert_eq!(client.get(format!("{}/", server.base)).send().await.unwrap().status().as_u16(), 200);
    }

    async fn admin_create_makes_an_account_from_the_command_line(server) {
        use std::io::Write;
        let mut child = server
            .assay(&["admin", "create", "--email", "root@example.org", "--name", "Root", "--password-stdin"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"a strong root password\n").unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let root = server.browser();
        root.login(("root@example.org", "a strong root password")).await;
        assert_eq!(root.call("current_user", &[]).await.json()["role"], "Admin");

        // A second account with the same email is refused with a clear message.
        let mut dup = server
            .assay(&["admin", "create", "--email", "ROOT@example.org", "--password-stdin"])
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        dup.stdin.take().unwrap().write_all(b"another strong password\n").unwrap();
        let out = dup.wait_with_output().unwrap();
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("exists already"));
    }
}

/// Two server functions with one endpoint would silently shadow each other.
#[test]
fn server_function_endpoints_are_unique() {
    let mut seen = std::collections::BTreeMap::<String, String>::new();
    for (name, path) in server_function_endpoints() {
        if let Some(first) = seen.insert(name.clone(), path.display().to_string()) {
            panic!("endpoint {name:?} is defined in {first} and in {}", path.display());
        }
    }
    assert!(seen.len() > 10, "{seen:?}");
}

both_backends! {
    async fn only_crowd_pages_may_be_framed_and_only_by_the_crowd_platform(server) {
        let page = server.browser().client.get(format!("{}/login", server.base)).send().await.unwrap();
        assert_eq!(page.headers()["x-frame-options"], "DENY");
        // The page's policy (its scripts, tested in security.rs) ends with who may frame it.
        let csp = page.headers()["content-security-policy"].to_str().unwrap().to_string();
        assert!(csp.ends_with("; frame-ancestors 'none'"), "{csp}");
        let work = server.browser().client.get(format!("{}/work/some-assignment", server.base)).send().await.unwrap();
        assert!(work.headers().get("x-frame-options").is_none());
        let csp = work.headers()["content-security-policy"].to_str().unwrap().to_string();
        assert!(csp.ends_with("; frame-ancestors 'self' https://www.mturk.com https://workersandbox.mturk.com"), "{csp}");
        assert_eq!(csp.matches("frame-ancestors").count(), 1, "{csp}");
    }
}

/// `in_flight=N` of every password hash the server logged (at debug level, `app::auth::server`).
fn hashes_in_flight(log: &str) -> Vec<usize> {
    // The log is coloured: drop the escape sequences (ESC [ … m).
    let mut plain = String::with_capacity(log.len());
    let mut chars = log.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
        .lines()
        .filter(|l| l.contains("hashing a password"))
        .filter_map(|l| l.split("in_flight=").nth(1)?.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .collect()
}

/// The peak resident size of a process in MB (Linux), from /proc.
fn peak_rss_mb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: u64 = status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Issue 17, finding 2: 100 simultaneous sign-ins with unknown emails ran 65 argon2 hashes at
/// once (19 MiB each: the server went from 392 to 1,397 MB). From ten addresses, so that no
/// throttle stops them: at most one hash per core runs at a time, the rest wait their turn or
/// are refused with 429 and Retry-After; an ordinary sign-in works afterwards.
async fn password_hashing_is_bounded(backend: Backend) {
    let Some(server) = TestServer::start_logged(backend, &[("ASSAY_LOG", "warn,app::auth::server=debug")]).await else { return };
    let slots = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
    let rss_before = peak_rss_mb(server.pid());
    let attempts: Vec<_> = (0..100u8)
        .map(|i| {
            let b = server.browser_from(std::net::IpAddr::from([127, 0, 0, 20 + i % 10]));
            tokio::spawn(async move {
                let form = [("email", format!("nobody-{i}@example.org")), ("password", "a guess at a password".to_string())];
                let r = b.client.post(format!("{}/api/login", b.base)).form(&form).send().await.unwrap();
                (r.status().as_u16(), r.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(String::from))
            })
        })
        .collect();
    let mut refused = 0;
    for a in attempts {
        match a.await.unwrap() {
            (401, _) => {}
            (429, retry) => {
                refused += 1;
                assert!(retry.as_deref().and_then(|r| r.parse::<u64>().ok()).is_some_and(|s| s >= 1), "a 429 says when to come back: {retry:?}");
            }
            (other, _) => panic!("a sign-in answered {other}"),
        }
    }
    let log = std::fs::read_to_string(server.log_path()).unwrap();
    let in_flight = hashes_in_flight(&log);
    assert!(in_flight.len() >= 100 - refused, "every checked password was hashed through the bound: {} hashes, {refused} refused", in_flight.len());
    let most = in_flight.iter().copied().max().unwrap_or(0);
    assert!(most <= slots, "{most} hashes ran at once on {slots} cores");
    // Memory follows: 19 MiB per hash running, and no more kept afterwards (Linux: the peak
    // resident size; before, the burst took it up by 300 MB to 1.3 GB).
    let rss_after = peak_rss_mb(server.pid());
    eprintln!("100 simultaneous sign-ins: {refused} refused with 429, at most {most} hashes at once ({slots} cores); peak RSS {rss_before:?} -> {rss_after:?} MB");
    if let (Some(before), Some(after)) = (rss_before, rss_after) {
        assert!(after - before < 20 * slots as u64 + 100, "the burst took the server from {before} to {after} MB");
    }
    // Ordinary sign-in still works, and so does a wrong password's answer.
    let b = server.browser_from(std::net::IpAddr::from([127, 0, 0, 40]));
    assert_eq!(b.call("login", &[("email", ADMIN.0), ("password", "wrong password")]).await.status, 401);
    b.login(ADMIN).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_hashing_is_bounded_sqlite() {
    password_hashing_is_bounded(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_hashing_is_bounded_postgres() {
    password_hashing_is_bounded(Backend::Postgres).await;
}

/// Issue 17, finding 2: sign-in attempts per client address are limited in memory, before the
/// database's throttle is asked (here 3 a minute): the fourth is a 429 with Retry-After, right
/// password or not, and another address is not affected.
async fn sign_ins_per_address_are_limited_in_memory(backend: Backend) {
    let Some(server) = TestServer::start_with(backend, &[("ASSAY_SIGN_INS_PER_MINUTE", "3")]).await else { return };
    let b = server.browser_from(std::net::IpAddr::from([127, 0, 0, 60]));
    for _ in 0..3 {
        b.login(ADMIN).await;
    }
    let r = b.client.post(format!("{}/api/login", server.base)).form(&[("email", ADMIN.0), ("password", ADMIN.1)]).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 429);
    let retry = r.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    assert!(retry.is_some_and(|s| (1..=60).contains(&s)), "{retry:?}");
    let body = r.text().await.unwrap();
    assert!(body.contains("Too many sign-in attempts from your address"), "{body}");
    server.browser_from(std::net::IpAddr::from([127, 0, 0, 61])).login(ADMIN).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ins_per_address_are_limited_in_memory_sqlite() {
    sign_ins_per_address_are_limited_in_memory(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ins_per_address_are_limited_in_memory_postgres() {
    sign_ins_per_address_are_limited_in_memory(Backend::Postgres).await;
}

/// A sign-in's status and its `Retry-After` (seconds), if any.
async fn login_answer(b: &Browser, email: &str, password: &str) -> (u16, Option<u64>) {
    let r = b.client.post(format!("{}/api/login", b.base)).form(&[("email", email), ("password", password)]).send().await.unwrap();
    (r.status().as_u16(), r.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok()))
}

/// The id of the account with `email`, and whether it is disabled, from the admin's list.
async fn account(admin: &Browser, email: &str) -> (String, Option<bool>) {
    let list = admin.call("list_users", &[]).await;
    assert_eq!(list.status, 200, "{}", list.body);
    let list = list.json();
    let a = list.as_array().unwrap().iter().find(|u| u["email"] == email).unwrap_or_else(|| panic!("{email} in {list}"));
    (a["id"].to_string(), a["disabled"].as_bool())
}

/// An API token's answer on the read-only API.
async fn token_status(server: &TestServer, secret: &str) -> u16 {
    reqwest::Client::new().get(format!("{}/api/v1/campaigns", server.base)).bearer_auth(secret).send().await.unwrap().status().as_u16()
}

both_backends! {
    /// Issue 17, finding 13: an admin signs an account out of every browser, and disables it:
    /// its sessions and API tokens stop at once, it cannot sign in, and enabling it again brings
    /// back neither. An admin cannot disable their own account.
    async fn an_admin_can_disable_an_account_and_sign_it_out_everywhere(server) {
        let admin = server.browser();
        admin.login(ADMIN).await;
        let (laptop, phone) = (server.browser(), server.browser());
        laptop.login(RESEARCHER).await;
        phone.login(RESEARCHER).await;
        let secret = laptop.call("create_api_token", &[("name", "script")]).await.json()["secret"].as_str().unwrap().to_string();
        assert_eq!(token_status(&server, &secret).await, 200);
        let (id, disabled) = account(&admin, RESEARCHER.0).await;
        assert_eq!(disabled, Some(false));

        // Signed out everywhere: both browsers, not the token.
        let out = admin.call("sign_out_everywhere", &[("user_id", &id)]).await;
        assert_eq!(out.status, 200, "{}", out.body);
        for b in [&laptop, &phone] {
            assert_eq!(b.call("current_user", &[]).await.json(), serde_json::Value::Null);
        }
        assert_eq!(token_status(&server, &secret).await, 200);
        laptop.login(RESEARCHER).await;

        // Disabled: the session and the token stop at once, signing in is refused.
        let off = admin.call("set_user_disabled", &[("user_id", &id), ("disabled", "true")]).await;
        assert_eq!(off.status, 200, "{}", off.body);
        assert_eq!(laptop.call("current_user", &[]).await.json(), serde_json::Value::Null);
        assert_eq!(token_status(&server, &secret).await, 401);
        assert_eq!(server.browser().call("login", &[("email", RESEARCHER.0), ("password", RESEARCHER.1)]).await.status, 401);
        assert_eq!(account(&admin, RESEARCHER.0).await.1, Some(true), "the list says disabled");
        // The accounts page offers to enable it again.
        let page = admin.get("/admin/users").await;
        assert!(page.body.contains("Enable") && page.body.contains("Sign out everywhere"), "the admin's page has the buttons");

        // Enabled again: the account signs in; the old token stays revoked.
        let on = admin.call("set_user_disabled", &[("user_id", &id), ("disabled", "false")]).await;
        assert_eq!(on.status, 200, "{}", on.body);
        laptop.login(RESEARCHER).await;
        assert_eq!(token_status(&server, &secret).await, 401);

        // Not one's own account; not by anyone but an admin.
        let (own, _) = account(&admin, ADMIN.0).await;
        let me = admin.call("set_user_disabled", &[("user_id", &own), ("disabled", "true")]).await;
        assert_eq!(me.status, 400, "{}", me.body);
        assert_ne!(admin.call("current_user", &[]).await.json(), serde_json::Value::Null);
        let organizer = server.browser();
        organizer.login(ORGANIZER).await;
        assert_eq!(organizer.call("set_user_disabled", &[("user_id", &id), ("disabled", "true")]).await.status, 403);
        assert_eq!(organizer.call("sign_out_everywhere", &[("user_id", &id)]).await.status, 403);
    }

    /// Issue 38: a token acts with its owner's role at the time of each request, as the README
    /// says: a demotion takes the token's organizer and researcher rights with the account's
    /// (403, not revoked), a promotion gives them back, with the new role's rights.
    async fn a_token_acts_with_its_owners_current_role(server) {
        let admin = server.browser();
        admin.login(ADMIN).await;
        let researcher = server.browser();
        researcher.login(RESEARCHER).await;
        let secret = researcher.call("create_api_token", &[("name", "script")]).await.json()["secret"].as_str().unwrap().to_string();
        assert_eq!(token_status(&server, &secret).await, 200);
        let (id, _) = account(&admin, RESEARCHER.0).await;
        // A researcher's token does not read the organizer's worker table.
        let campaigns = reqwest::Client::new().get(format!("{}/api/v1/campaigns", server.base)).bearer_auth(&secret).send().await.unwrap();
        let campaign = campaigns.json::<serde_json::Value>().await.unwrap()[0]["id"].as_i64().expect("a demo campaign");
        let workers = |secret: String| {
            let url = format!("{}/api/v1/campaigns/{campaign}/workers", server.base);
            async move { reqwest::Client::new().get(url).bearer_auth(secret).send().await.unwrap().status().as_u16() }
        };
        assert_eq!(workers(secret.clone()).await, 403);
        assert_eq!(admin.call("set_user_role", &[("user_id", &id), ("role", "annotator")]).await.status, 200);
        assert_eq!(token_status(&server, &secret).await, 403, "demoted: the token is the annotator's, not revoked");
        assert_eq!(admin.call("set_user_role", &[("user_id", &id), ("role", "organizer")]).await.status, 200);
        assert_eq!(token_status(&server, &secret).await, 200, "promoted: the token works again");
        assert_eq!(workers(secret.clone()).await, 200, "with the organizer's rights");
        // The token is listed live on its owner's page.
        researcher.login(RESEARCHER).await;
        let tokens = researcher.call("list_api_tokens", &[]).await.json();
        assert_eq!(tokens[0]["revoked_at"], serde_json::Value::Null, "{tokens}");
    }
}
