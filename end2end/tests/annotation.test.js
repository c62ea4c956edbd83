// The annotation screens in Chromium: a whole 100-item DA HIT by keyboard (with a reload and an
// attempt to go back in the middle) and by mouse, a whole word-order HIT, the completion code,
// and that a bad reference renders exactly like a real system output apart from its text.
// The work comes from `assay serve --demo` (annotate::fixture).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openHydrated, waitHydrated, diagnose, DEMO } from './harness.js';

let server;
let browser;
let organizer; // a page signed in as the organizer, for the hidden facts and stored judgments

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const context = await browser.newContext();
  organizer = await openHydrated(context, `${server.base}/login`);
  await signIn(organizer, DEMO.organizer);
  await organizer.waitForSelector('section[data-role="organizer"]', { timeout: 15_000 });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function signIn(page, who) {
  await page.fill('input[name="email"]', who.email);
  await page.fill('input[name="password"]', who.password);
  await page.click('#login-form button[type="submit"]');
}

async function verify(page, code) {
  return page.evaluate(async (code) => (await fetch(`/api/verify_completion_code?code=${encodeURIComponent(code)}`)).json(), code);
}

// Calls a server function from a page (same origin, with its cookies).
async function call(page, name, fields = {}) {
  return page.evaluate(async ([name, fields]) => {
    const r = await fetch(`/api/${name}`, { method: 'POST', body: new URLSearchParams(fields) });
    return { status: r.status, body: await r.text() };
  }, [name, fields]);
}

async function facts(assignment) {
  const r = await call(organizer, 'assignment_items', { assignment });
  assert.equal(r.status, 200, r.body);
  return JSON.parse(r.body);
}

async function stored(assignment) {
  const r = await call(organizer, 'assignment_judgments', { assignment });
  assert.equal(r.status, 200, r.body);
  return JSON.parse(r.body);
}

// The DOM of the item on the screen without its text: tags, attributes (inline style of the
// thumb aside) and children. Two items of the same campaign must give the same string. (The
// first item of a DA HIT comes with the instructions, which stay behind it, hidden, until it is
// answered: the item's card is compared, not the page around it.)
async function shape(page) {
  return page.evaluate(() => {
    const walk = (el) => {
      const attrs = [...el.attributes]
        .filter((a) => !(el.classList.contains('thumb') && a.name === 'style'))
        .map((a) => `${a.name}=${a.value}`)
        .sort()
        .join(' ');
      return `<${el.tagName.toLowerCase()} ${attrs}>${[...el.children].map(walk).join('')}</>`;
    };
    return walk(document.querySelector('#work .item-screen'));
  });
}

// What the work page shows: each #progress (visible or not), the focused element, the error.
async function screenState(page) {
  return page.evaluate(() => JSON.stringify({
    progress: [...document.querySelectorAll('#progress')].map((p) => ({ text: p.textContent, shown: p.offsetParent !== null })),
    focused: document.activeElement ? `${document.activeElement.tagName}#${document.activeElement.id}` : null,
    start: document.querySelector('#start') ? { shown: document.querySelector('#start').offsetParent !== null, disabled: document.querySelector('#start').disabled } : null,
    next: document.querySelector('#next') ? { disabled: document.querySelector('#next').disabled } : null,
    error: document.querySelector('#work-error')?.textContent ?? null,
    early: window.__assayEarly ?? null,
  })).catch((e) => `(the page could not be read: ${e.message})`);
}

async function progress(page) {
  return (await page.textContent('#progress')).trim();
}

async function waitProgress(page, n, total) {
  await page.waitForFunction(
    ([want]) => document.querySelector('#progress')?.textContent.trim() === want,
    [`${n} of ${total}`],
    { timeout: 15_000 },
  ).catch(async (e) => {
    // What the screen shows when it did not move on (its answers, Next, an error, the focus).
    const chosen = await page.evaluate(() => ({
      checked: [...document.querySelectorAll('[aria-checked="true"]')].map((b) => b.id),
      focus: document.activeElement?.id || document.activeElement?.className || document.activeElement?.tagName,
    })).catch(() => null);
    throw new Error(`item ${n}: ${e.message.split('\n')[0]}\n${JSON.stringify(chosen)}\n${await screenState(page)}\n${await diagnose(page)}`, { cause: e });
  });
}

async function openHit(page, task) {
  await page.waitForSelector('#my-hits', { timeout: 15_000 });
  const link = page.locator(`#my-hits li[data-task="${task}"] a`);
  const href = await link.getAttribute('href');
  await link.click();
  await page.waitForSelector('#start', { timeout: 15_000 });
  return href.split('/').pop();
}

test('an annotator does a whole DA HIT by keyboard, reloads, cannot go back, and gets a valid code', async () => {
  const context = await browser.newContext();
  const page = await openHydrated(context, `${server.base}/login`);
  await signIn(page, DEMO.annotator);
  const id = await openHit(page, 'da-adequacy');
  assert.match(await page.textContent('#hit-size'), /This HIT has 100 items/);
  // A DA HIT's first item comes ahead with an early script that answers Start before the
  // bundle: its Start is enabled as sent.
  const sent = await (await page.request.get(page.url())).text();
  assert.doesNotMatch(sent, /<button[^>]*id="start"[^>]*disabled/, 'Start works before the bundle on a DA HIT');
  assert.match(await page.textContent('#instructions'), /slider/);
  await page.focus('#start');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#score');

  const types = (await facts(id)).map((f) => f.item_type);
  const shapes = new Map();
  const expected = [];
  const keysFor = (i) => [['End'], ['Home'], ['ArrowRight', 'ArrowRight', 'ArrowRight'], ['PageDown', 'PageDown', 'ArrowLeft']][i % 4];
  const valueFor = (i) => [100, 0, 53, 29][i % 4];
  let goneBackAt = null;
  const latencies = [];
  for (let i = 0; i < 100; i++) {
    await waitProgress(page, i + 1, 100);
    if (i === 37) {
      // A reload resumes at the same item.
      const before = await page.textContent('#candidate');
      await page.reload();
      await waitHydrated(page);
      await waitProgress(page, 38, 100);
      assert.equal(await page.textContent('#candidate'), before);
    }
    if (i === 60) {
      // The browser's back button leaves the HIT; coming back shows the same item, not an
      // earlier one; the server refuses an answer to an earlier item.
      const before = await page.textContent('#candidate');
      await page.goBack();
      await page.waitForURL((u) => !u.pathname.startsWith('/work/'), { timeout: 15_000 });
      // The page left is another bundle's (the work page has its protocol's own): the browser
      // loads it from the server, and going on before that load ends would abort it.
      await page.waitForSelector('#my-hits', { timeout: 15_000 });
      await waitHydrated(page);
      await page.goto(`${server.base}/work/${id}`);
      await waitHydrated(page);
      await waitProgress(page, 61, 100);
      assert.equal(await page.textContent('#candidate'), before);
      const old = await call(page, 'submit_judgment', { assignment: id, position: '59', score: '1', time_on_screen_ms: '5', key: 'back' });
      assert.equal(old.status, 409, old.body);
      goneBackAt = i;
    }
    // No number anywhere in the slider, no value before the annotator sets one.
    const slider = page.locator('#score');
    assert.equal(await slider.getAttribute('data-set'), 'false');
    assert.equal(await page.isDisabled('#next'), true);
    assert.doesNotMatch(await slider.getAttribute('aria-valuetext'), /\d/);
    assert.equal(await slider.getAttribute('aria-valuenow'), null);
    const s = await shape(page);
    shapes.set(types[i], [...(shapes.get(types[i]) ?? []), s]);
    // The slider has the focus: keys set it, Enter sends.
    for (const key of keysFor(i)) await page.keyboard.press(key);
    assert.doesNotMatch(await slider.getAttribute('aria-valuetext'), /\d/);
    assert.equal(await page.isDisabled('#next'), false);
    expected.push(valueFor(i));
    if (i === 80) {
      // The connection drops as the answer is sent: the page says so, keeps the answer and
      // stays on the item; sending again once the connection is back stores it once.
      await context.setOffline(true);
      await page.keyboard.press('Enter');
      await page.waitForSelector('#work-error', { timeout: 15_000 });
      assert.match(await page.textContent('#work-error'), /press the button again/);
      assert.equal(await progress(page), '81 of 100');
      await context.setOffline(false);
      assert.equal(await page.isDisabled('#next'), false);
    }
    const sent = Date.now();
    await page.keyboard.press('Enter');
    if (i < 99 && i !== 80) {
      await waitProgress(page, i + 2, 100);
      latencies.push(Date.now() - sent);
    }
  }
  assert.equal(goneBackAt, 60);
  latencies.sort((a, b) => a - b);
  const median = latencies[Math.floor(latencies.length / 2)];
  const p95 = latencies[Math.floor(latencies.length * 0.95)];
  console.log(`Enter → next item on screen: median ${median} ms, p95 ${p95} ms over ${latencies.length} items`);
  assert.ok(median < 1000, `moving on feels instant (median ${median} ms)`);
  const code = (await page.waitForSelector('#completion-code', { timeout: 15_000 }).then((e) => e.textContent())).trim();
  assert.match(code, /^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
  // An account worker has no platform to return to.
  assert.equal(await page.locator('#return-link').count(), 0);

  // A bad reference renders exactly like a system output, apart from its text.
  const all = new Set([...shapes.values()].flat());
  assert.ok(shapes.has('BAD_REF') && shapes.has('SYSTEM') && shapes.has('REF') && shapes.has('REPEAT'));
  assert.equal(all.size, 1, `every item has the same DOM structure: ${[...all].join('\n')}`);

  // Exactly one judgment per item, with the keyboard's values and times.
  const judgments = await stored(id);
  assert.equal(judgments.length, 100);
  judgments.forEach((j, i) => {
    assert.equal(j.position, i);
    assert.equal(j.score, expected[i], `item ${i}`);
    assert.ok(j.time_on_screen_ms >= 0 && j.submitted_at >= j.shown_at, JSON.stringify(j));
  });

  // An account's HIT has no crowd platform ids, and a code is valid only with its worker's
  // ids (issue 38): the annotator's own check says not valid; its campaign's organizers verify it.
  const check = await verify(page, code);
  assert.equal(check.valid, false);
  const orgCheck = await verify(organizer, code);
  assert.equal(orgCheck.valid, true);
  assert.equal(orgCheck.assignment, id);
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

test('on a phone the slider is full width and a tap sets it; the HIT resumes on another device', async () => {
  const list = JSON.parse((await call(organizer, 'list_assignments')).body);
  const id = list.find((a) => a.platform === 'prolific').assignment;
  const context = await browser.newContext({ viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });
  const page = await openHydrated(context, `${server.base}/work/${id}`);
  await page.tap('#start');
  await waitProgress(page, 1, 100);
  const track = await page.locator('#score').boundingBox();
  const card = await page.locator('.item-screen').boundingBox();
  assert.ok(track.width > card.width - 60 && track.width < 390, `full width on a phone: ${track.width} of ${card.width}`);
  assert.equal(await page.isDisabled('#next'), true);
  await page.tap('#score', { position: { x: track.width * 0.8, y: track.height / 2 } });
  assert.equal(await page.isDisabled('#next'), false);
  await page.tap('#next');
  await waitProgress(page, 2, 100);
  const [first] = await stored(id);
  assert.ok(Math.abs(first.score - 80) < 1, JSON.stringify(first));
  // Someone else's account HIT is refused to this (signed-out) phone.
  const theirs = list.find((a) => a.platform === 'account' && a.task === 'da-adequacy').assignment;
  await page.goto(`${server.base}/work/${theirs}`);
  await page.waitForSelector('#work-error');
  assert.match(await page.textContent('#work-error'), /sign in/i);
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

test('the crowd worker finishes that DA HIT with the mouse on a desktop and returns to the platform', async () => {
  const list = JSON.parse((await call(organizer, 'list_assignments')).body);
  const id = list.find((a) => a.platform === 'prolific').assignment;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Started on the phone (previous test): resumes at item 2.
  const page = await openHydrated(context, `${server.base}/work/${id}`);
  await waitProgress(page, 2, 100);
  const expected = [80];
  for (let i = 1; i < 100; i++) {
    await waitProgress(page, i + 1, 100);
    const box = await page.locator('#score').boundingBox();
    if (i === 1) assert.ok(box.width >= 560 && box.width <= 640, `about 600 px wide on a desktop: ${box.width}`);
    const f = ((i * 37) % 97 + 1.5) / 100;
    await page.mouse.click(box.x + box.width * f, box.y + box.height / 2);
    expected.push(f * 100);
    await page.click('#next');
  }
  await page.waitForSelector('#completion-code', { timeout: 15_000 });
  const code = (await page.textContent('#completion-code')).trim();
  const back = await page.getAttribute('#return-link', 'href');
  assert.equal(back, `https://app.prolific.com/submissions/complete?cc=${code}`);
  const judgments = await stored(id);
  assert.equal(judgments.length, 100);
  let fractional = 0;
  judgments.forEach((j, i) => {
    assert.ok(Math.abs(j.score - expected[i]) < (i === 0 ? 1 : 0.6), `item ${i}: stored ${j.score}, clicked at ${expected[i]}`);
    if (!Number.isInteger(j.score)) fractional += 1;
  });
  assert.ok(fractional > 50, 'scores are stored at full resolution, not rounded');
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

test('an annotator does a whole word-order HIT by keyboard and mouse', async () => {
  const context = await browser.newContext();
  const page = await openHydrated(context, `${server.base}/login`);
  await signIn(page, DEMO.annotator);
  const id = await openHit(page, 'word-order');
  assert.match(await page.textContent('#hit-size'), /This HIT has 50 items/);
  // As the server sends it, Start waits for the bundle (no early script answers it for word
  // order: a press before hydration would be lost); clicking waits for it to be enabled.
  const sent = await (await page.request.get(page.url())).text();
  assert.match(sent, /<button[^>]*id="start"[^>]*disabled/, 'Start is disabled until the page is hydrated');
  await page.click('#start');
  const types = (await facts(id)).map((f) => f.item_type);
  const shapes = new Map();
  const expected = [];
  for (let i = 0; i < 50; i++) {
    await waitProgress(page, i + 1, 50);
    shapes.set(types[i], new Set([...(shapes.get(types[i]) ?? []), await shape(page)]));
    if (i === 0) {
      assert.match(await page.textContent('#source-language'), /German/);
      // The MT output comes first, then the reference.
      const order = await page.evaluate(() => {
        const c = document.querySelector('#candidate');
        const r = document.querySelector('#context');
        return c.compareDocumentPosition(r) & Node.DOCUMENT_POSITION_FOLLOWING;
      });
      assert.ok(order);
    }
    assert.equal(await page.isDisabled('#next'), true);
    let b1 = (i % 5) + 1;
    let b2 = ((i * 3) % 5) + 1;
    if (i === 0) {
      // Each question is one radio group (issue 38 item 5): one tab stop, the arrows move and
      // choose within it, Tab goes on to the next question as the legend says.
      const focused = () => page.evaluate(() => document.activeElement?.id);
      await page.keyboard.press('Tab');
      assert.equal(await focused(), 'q1-box-1');
      await page.keyboard.press('ArrowRight');
      assert.equal(await focused(), 'q1-box-2');
      assert.equal(await page.getAttribute('#q1-box-2', 'aria-checked'), 'true');
      await page.keyboard.press('Tab');
      assert.equal(await focused(), 'q2-box-1', 'Tab goes to the next question, not the next box');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await focused(), 'q2-box-5', 'the arrows wrap around');
      await page.keyboard.press('Shift+Tab');
      assert.equal(await focused(), 'q1-box-2', 'back to the box chosen');
      assert.equal(await page.evaluate(() => document.querySelectorAll('#q1 .box[tabindex="0"]').length), 1);
      assert.match(await page.textContent('#key-legend'), /next question/);
      // On a phone (390 px) the same screen fits and a tap chooses a box, which becomes its
      // question's tab stop (nothing is sent from there).
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, storageState: await context.storageState() });
      const small = await openHydrated(phone, page.url());
      await small.waitForSelector('#q2 .box');
      await small.tap('#q2-box-4');
      assert.equal(await small.getAttribute('#q2-box-4', 'aria-checked'), 'true');
      assert.equal(await small.getAttribute('#q2-box-4', 'tabindex'), '0', 'the chosen box is the tab stop');
      assert.equal(await small.evaluate(() => document.querySelectorAll('#q2 .box[tabindex="0"]').length), 1);
      const overflow = await small.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow} px too wide)`);
      await phone.close();
      await page.keyboard.press('Enter');
      expected.push([1 / 4, 1]);
      continue;
    }
    if (i < 25) {
      // Keyboard: the first digit answers Q1, the second Q2; Enter sends.
      await page.keyboard.press(String(b1));
      assert.equal(await page.isDisabled('#next'), true, 'both questions must be answered');
      await page.keyboard.press(String(b2));
      await page.keyboard.press('Enter');
    } else {
      await page.click(`#q1 .box[data-box="${b1}"]`);
      await page.click(`#q2 .box[data-box="${b2}"]`);
      assert.equal(await page.getAttribute(`#q2 .box[data-box="${b2}"]`, 'aria-checked'), 'true');
      await page.click('#next');
    }
    expected.push([(b1 - 1) / 4, (b2 - 1) / 4]);
  }
  await page.waitForSelector('#completion-code', { timeout: 15_000 });
  // A permuted reference renders exactly like a system output, apart from its text.
  assert.ok(shapes.has('BAD_REF') && shapes.has('SYSTEM'));
  assert.equal(new Set([...shapes.values()].flatMap((v) => [...v])).size, 1);
  const judgments = await stored(id);
  assert.equal(judgments.length, 50);
  judgments.forEach((j, i) => {
    assert.equal(j.position, i);
    assert.deepEqual([j.score, j.score2], expected[i], `item ${i}`);
  });
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});

test('right-to-left text runs right to left, with the campaign wording and an Arabic interface, and wraps on a phone', async () => {
  const list = JSON.parse((await call(organizer, 'list_assignments')).body);
  const id = list.find((a) => a.task === 'da-fluency').assignment;
  const context = await browser.newContext({ viewport: { width: 360, height: 760 }, isMobile: true, hasTouch: true });
  const page = await openHydrated(context, `${server.base}/work/${id}`);
  assert.equal(await page.getAttribute('#instructions', 'dir'), 'rtl');
  // An Arabic campaign: the interface is Arabic too (issue 18 item 3).
  assert.equal((await page.textContent('#hit-size')).trim(), 'عدد العناصر في هذه المهمة: 12.');
  await page.tap('#start');
  for (let i = 0; i < 12; i++) {
    await page.waitForFunction((want) => document.querySelector('#progress')?.textContent.trim() === want, `${i + 1} من 12`, { timeout: 15_000 })
      .catch(async (e) => { throw new Error(`item ${i + 1}: ${e.message.split('\n')[0]}\n${await screenState(page)}\n${await diagnose(page)}`, { cause: e }); });
    const look = await page.evaluate(() => {
      const c = document.querySelector('#candidate');
      return {
        direction: getComputedStyle(c).direction,
        overflows: c.scrollWidth > c.clientWidth + 1,
        context: document.querySelector('#context') !== null,
        next: document.querySelector('#next').textContent.trim(),
        statement: document.querySelector('#statement').textContent,
        anchors: [...document.querySelectorAll('.anchor')].map((a) => a.textContent),
      };
    });
    assert.equal(look.direction, 'rtl');
    assert.equal(look.overflows, false, 'long segments wrap');
    assert.equal(look.context, false, 'fluency shows the output alone');
    assert.equal(look.next, 'التالي');
    assert.match(look.statement, /عربية سليمة/);
    assert.deepEqual(look.anchors, ['لا أوافق بشدة', 'أوافق بشدة']);
    await page.keyboard.press(i % 2 ? 'Home' : 'End');
    await page.keyboard.press('Enter');
  }
  await page.waitForSelector('#completion-code', { timeout: 15_000 });
  assert.equal((await stored(id)).length, 12);
  assert.deepEqual(page.assayErrors, []);
  await context.close();
});
