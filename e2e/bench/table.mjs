// Prints the benchmark figures (JSON lines {name, value, unit} written by
// the Go benchmarks, history, desktop and window.mjs) as one table with the
// targets of docs/BENCHMARKS.md and a verdict for each. It never fails on a
// figure: benchmarks measure, they do not gate. It exits non-zero only when
// a figure that must be there is missing (a measurement that broke).
//
//   node e2e/bench/table.mjs results.jsonl [--smoke] [--markdown]
import { readFileSync } from 'node:fs';

const file = process.argv[2];
const smoke = process.argv.includes('--smoke');
const markdown = process.argv.includes('--markdown');
if (!file) {
  console.error('usage: node e2e/bench/table.mjs results.jsonl [--smoke] [--markdown]');
  process.exit(2);
}

// Last value wins for each name.
const figures = new Map();
for (const line of readFileSync(file, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const f = JSON.parse(line);
  figures.set(f.name, f);
}

// [section, name, label, target (op, value) or null]
const rows = [
  ['1 Stop', 'stop.to_cancelled_event.p50', 'Stop → cancelled event, p50', null],
  ['1 Stop', 'stop.to_cancelled_event.p99', 'Stop → cancelled event, p99', ['<=', 5]],
  ['1 Stop', 'stop.to_server_close.p50', 'Stop → model server sees the close, p50', null],
  ['1 Stop', 'stop.to_server_close.p99', 'Stop → model server sees the close, p99', ['<=', 5]],
  ['1 Stop', 'stop.samples', 'stops measured (Go)', ['>=', 200]],
  ['1 Stop', 'stop.process_tree_gone.p50', 'Stop → run_command\'s whole process tree gone, p50', null],
  ['1 Stop', 'stop.process_tree_gone.p99', 'Stop → run_command\'s whole process tree gone, p99', null],
  ['1 Stop', 'window.stop.click_to_painted.p50', 'window: click → "Stopped" painted, p50', null],
  ['1 Stop', 'window.stop.click_to_painted.p99', 'window: click → "Stopped" painted, p99', ['<=', 50]],
  ['1 Stop', 'window.stop.click_to_dom.p99', 'window: click → "Stopped" in the DOM, p99', ['<=', 50]],
  ['1 Stop', 'window.stop.click_to_call.p99', 'window: click → StopTask called, p99', null],
  ['1 Stop', 'window.stop.click_to_reply.p50', 'window: click → StopTask reply in the page, p50', null],
  ['1 Stop', 'window.stop.click_to_reply.p99', 'window: click → StopTask reply in the page, p99', null],
  ['1 Stop', 'window.stop.samples', 'stops measured (window)', ['>=', 200]],
  ['2 Runner', 'overhead.1_task.per_step', '1 task: wall time per step', ['<=', 2]],
  ['2 Runner', 'overhead.1_task.store_per_step', '1 task: of which SQLite calls', null],
  ['2 Runner', 'overhead.1_task.model_stream_per_step', '1 task: of which the model stream', null],
  ['2 Runner', 'overhead.model_call_alone', 'one model call alone (no runner, no store)', null],
  ['2 Runner', 'start.first_request.p50', 'StartTask → the first request at the model server, p50', ['<=', 3]],
  ['2 Runner', 'overhead.claude.1_task.per_step', 'Claude (native adapter), 1 task: wall time per step', null],
  ['2 Runner', 'overhead.claude.model_call_alone', 'Claude (native adapter): one model call alone', null],
  ['2 Runner', 'overhead.100_tasks.per_step', '100 tasks × 20 steps: wall time per step', ['<=', 2]],
  ['2 Runner', 'overhead.100_tasks.task_step_latency', '100 tasks: a step as each task sees it', null],
  ['2 Runner', 'overhead.100_tasks.failed_tasks', '100 tasks: tasks that failed', ['==', 0]],
  ['2 Runner', 'overhead.1_task.lost_messages', '1 task: messages lost', ['==', 0]],
  ['2 Runner', 'overhead.1_task.duplicated_messages', '1 task: messages duplicated', ['==', 0]],
  ['2 Runner', 'overhead.100_tasks.lost_messages', '100 tasks: messages lost', ['==', 0]],
  ['2 Runner', 'overhead.100_tasks.duplicated_messages', '100 tasks: messages duplicated', ['==', 0]],
  ['3 Streaming', 'stream.tokens_per_s', 'model stream rate', null],
  ['3 Streaming', 'stream.events_per_s', 'delta events per second (Go, per task)', ['<=', 60]],
  ['3 Streaming', 'stream.events_per_s.peak_1s', 'delta events in the busiest second', ['<=', 60]],
  ['3 Streaming', 'stream.bytes_per_event', 'bytes per delta event handed to WebKit', null],
  ['3 Streaming', 'stream.stored_text_identical', 'stored text identical to the stream (1 = yes)', ['==', 1]],
  ['3 Streaming', 'reasoning.events_per_s', 'a thinking model: delta events per second, reasoning and answer (Go, per task)', ['<=', 60]],
  ['3 Streaming', 'reasoning.events_per_s.peak_1s', 'a thinking model: delta events in the busiest second', ['<=', 60]],
  ['3 Streaming', 'reasoning.stored_identical', 'a thinking model: stored reasoning identical to the stream (1 = yes)', ['==', 1]],
  ['3 Streaming', 'window.stream.new_conversation.delta_events_per_s', 'window: delta events per second reaching the page', ['<=', 60]],
  ['3 Streaming', 'window.stream.new_conversation.delta_bytes', 'window: bytes per delta event (JSON)', null],
  ['4 History', 'history.conversations', 'conversations', null],
  ['4 History', 'history.list.median', 'list conversations (store), median', null],
  ['4 History', 'history.list.json_bytes', 'list as JSON', null],
  ['4 History', 'history.open.messages', 'messages in the opened conversation', null],
  ['4 History', 'history.open.median', 'open the largest conversation (store), median', ['<=', 150]],
  ['4 History', 'history.open.median_with_json', 'open it + encode to JSON (what Wails sends)', ['<=', 150]],
  ['4 History', 'history.list_page.median_with_json', 'list: the first page of 50 (store + JSON), median', null],
  ['4 History', 'history.list_page.json_bytes', 'list: the first page as JSON', null],
  ['4 History', 'history.list_last_page.median_with_json', 'list: the last page (store + JSON), median', null],
  ['4 History', 'history.list_search.median_with_json', 'list: a title search over every conversation, median', null],
  ['4 History', 'history.open_page.median_with_json', 'open the largest: its latest 100 messages, tasks, usage (+ JSON), median', ['<=', 150]],
  ['4 History', 'history.open_page.json_bytes', 'open the largest: what Wails sends', null],
  ['4 History', 'history.older_page.median_with_json', 'its oldest page of 100 (+ JSON), median', null],
  ['4 History', 'window.ui.reopen_big_conversation_painted', 'window: click → it is painted (Chromium)', ['<=', 150]],
  ['4 History', 'window.ui.load_to_big_conversation_painted', 'window: app start → it is painted (Chromium)', ['<=', 1000]],
  ['4 History', 'frontend.store.load_10k_messages.median', 'window code (jsdom): 10,000 messages into the store, median', ['<=', 1000]],
  ['4 History', 'frontend.message_list.render_10k_messages.median', 'window code (jsdom): the list of 10,000 rendered, median', ['<=', 5000]],
  ['4 History', 'desktop.seeded.start.complete.median', 'start the app with the history (production, visually complete)', ['<=', 800]],
  ['4 History', 'desktop.empty.idle_footprint', 'idle memory, empty history (Go + WebKit, shared counted once)', ['<=', 150]],
  ['4 History', 'desktop.seeded.idle_footprint', 'idle memory, with the history (Go + WebKit, shared counted once)', ['<=', 150]],
  ['4 History', 'desktop.idle_footprint.seeded_minus_empty', 'growth with the history ("flat": ≤ 15 MB)', ['<=', 15]],
  ['4 History', 'desktop.empty.idle_private', 'of which private to Errand (no shared libraries)', null],
  ['4 History', 'desktop.seeded.idle_private', 'with the history: private', null],
  ['4 History', 'desktop.bare.idle_private', 'floor, bare Wails window: private', null],
  ['4 History', 'desktop.empty.idle_rss_sum', 'idle, empty history: RSS added up (as top shows it)', null],
  ['4 History', 'desktop.seeded.idle_rss_sum', 'idle, with the history: RSS added up', null],
  ['4 History', 'desktop.seeded.idle_rss.go', 'with the history: Go process RSS', null],
  ['4 History', 'desktop.seeded.idle_rss.webkit_web', 'with the history: WebKitWebProcess RSS', null],
  ['4 History', 'desktop.seeded.idle_rss.webkit_network', 'with the history: WebKitNetworkProcess RSS', null],
  ['4 History', 'window.alt_chromium.idle_footprint', 'alternative: the same UI and history in Chromium (Electron-like), idle', null],
  ['4 History', 'window.alt_chromium.idle_private', '… of which private', null],
  ['4 History', 'desktop.bare.idle_footprint', 'floor: a bare Wails window, idle', null],
  ['5 Cold start', 'desktop.empty.start.window.median', 'exec → window mapped', null],
  ['5 Cold start', 'desktop.empty.start.first_paint.median', 'exec → first paint', null],
  ['5 Cold start', 'desktop.empty.start.bound_call.median', 'exec → page calls Go (interactive)', ['<=', 1000]],
  ['5 Cold start', 'desktop.empty.start.complete.median', 'exec → visually complete', ['<=', 1000]],
  ['5 Cold start', 'desktop.empty_restart.start.complete.median', 'a restart, empty history: exec → visually complete (the last first screen shown as the page loads)', null],
  ['5 Cold start', 'desktop.seeded_restart.start.complete.median', 'a restart with the history: exec → visually complete', null],
  ['5 Cold start', 'desktop.seeded_restart.start.snapshot_shown', '… restarts that showed the last first screen', null],
  ['5 Cold start', 'desktop.empty_restart_nocopy.start.complete.median', 'the same restarts without the copy: empty history', null],
  ['5 Cold start', 'desktop.seeded_restart_nocopy.start.complete.median', '… with the history', null],
  ['5 Cold start', 'desktop.bare.start.complete.median', 'floor, a bare Wails window: exec → visually complete', null],
  ['5 Cold start', 'desktop.bare.start.window.median', 'floor, a bare Wails window: exec → window mapped', null],
  ['5 Cold start', 'desktop.bare.start.bound_call.median', 'floor: exec → page calls Go', null],
  ['5 Long session', 'desktop.steps.growth', 'a task of 200 steps in the window (smoke: 3): footprint growth, idle after − idle before', ['<=', 30]],
  ['5 Long session', 'desktop.steps.footprint_before', '… footprint before (empty history, idle)', null],
  ['5 Long session', 'desktop.steps.footprint_after', '… footprint after (the task completed, idle)', null],
  ['5 Long session', 'desktop.steps.growth_private.go', '… growth of the Go process (private)', null],
  ['5 Long session', 'desktop.steps.growth_private.webkit_web', '… growth of WebKitWebProcess (private)', null],
  ['5 Long session', 'desktop.steps.count', '… steps, as Errand counts them (the final task_complete included)', null],
  ['5 Long session', 'desktop.steps.seconds', '… the task took (no target)', null],
  ['6 UI', 'window.stream.big_conversation.longest_task', 'streaming in the 10,000-message conversation: longest task', null],
  ['6 UI', 'window.stream.big_conversation.longest_frame_gap', '… longest gap between frames', ['<=', 50]],
  ['6 UI', 'window.stream.big_conversation.fps', '… frames per second', ['>=', 50]],
  ['6 UI', 'window.stream.big_conversation.rows_changed_per_delta', '… transcript rows changed in the page per delta', null],
  ['6 UI', 'window.stream.big_conversation.dom_mutations_per_delta', '… DOM mutations per delta', null],
  ['6 UI', 'window.stream.big_conversation.transcript_dom_nodes', '… elements in the transcript', null],
  ['6 UI', 'window.stream.new_conversation.longest_task', 'streaming in a new conversation: longest task', null],
  ['6 UI', 'window.stream.new_conversation.longest_frame_gap', '… longest gap between frames', null],
  ['6 UI', 'window.stream.new_conversation.fps', '… frames per second', null],
  ['6 UI', 'desktop.stream.long_conversation.fps', 'production window: streaming at 1,000 tokens/s into the 10,000-message conversation (smoke: 2,000 tokens into 1,000 messages), frames on the screen per second', ['>=', 50]],
  ['6 UI', 'desktop.stream.long_conversation.longest_frame_gap', '… longest gap between two frames on the screen', ['<=', 50]],
  ['6 UI', 'desktop.stream.new_conversation.fps', '… in a new conversation, frames per second', null],
  ['6 UI', 'desktop.stream.new_conversation.longest_frame_gap', '… longest gap', null],
  ['6 UI', 'desktop.stream.code_block.fps', '… then as one code block, frames per second', null],
  ['6 UI', 'desktop.stream.code_block.longest_frame_gap', '… longest gap', null],
  ['6 UI', 'desktop.stream.list.fps', '… then as one list (a link an item), frames per second', null],
  ['6 UI', 'desktop.stream.list.longest_frame_gap', '… longest gap', null],
  ['6 UI', 'desktop.stream.table.fps', '… then as one table (500 rows), frames per second', null],
  ['6 UI', 'desktop.stream.table.longest_frame_gap', '… longest gap', null],
  ['7 Long reply', 'long_reply.bytes', 'a reply streamed as fast as loopback allows', null],
  ['7 Long reply', 'long_reply.stream_and_store', '… streamed, stored and published in', null],
  ['7 Long reply', 'long_reply.stored_identical', 'stored text identical to the stream (1 = yes)', ['==', 1]],
  ['7 Long reply', 'long_reply.stop.samples', 'stops from 5% to 99% into the reply', null],
  ['7 Long reply', 'long_reply.stop.to_cancelled_event.p50', 'Stop → cancelled event, p50', null],
  ['7 Long reply', 'long_reply.stop.to_cancelled_event.p99', 'Stop → cancelled event, p99', ['<=', 50]],
  ['7 Long reply', 'long_reply.stop.to_cancelled_event.max', 'Stop → cancelled event, max', ['<=', 50]],
  ['7 Long reply', 'long_reply.stop.to_return.p99', 'Stop → StopTask returns, p99', ['<=', 50]],
  ['7 Long reply', 'long_reply.stop.at_5_pct.to_cancelled_event.p50', 'Stop at 5% of the reply → cancelled event, p50', null],
  ['7 Long reply', 'long_reply.stop.at_5_pct.in_store.p50', '… of which the store calls', null],
  ['7 Long reply', 'long_reply.stop.at_99_pct.to_cancelled_event.p50', 'Stop at 99% of the reply → cancelled event, p50', null],
  ['7 Long reply', 'long_reply.stop.at_99_pct.in_store.p50', '… of which the store calls', null],
  ['14 Branches', 'window.branch.click_to_painted.p50', 'window: version arrow clicked → the other branch painted (every message changes), p50', ['<=', 150]],
  ['14 Branches', 'window.branch.click_to_painted.max', '… the slowest', null],
  ['14 Branches', 'window.branch.click_to_reply.p50', '… of which ShowVersion\'s reply in the page, p50', null],
  ['7 Long reply', 'window.long.bytes', 'window: a reply streamed as fast as the server allows', null],
  ['7 Long reply', 'window.long.completed_and_shown', '… completed and shown to its last line', null],
  ['7 Long reply', 'window.long.longest_task', '… longest main-thread task meanwhile', null],
  ['7 Long reply', 'window.long.transcript_dom_nodes', '… elements in the transcript, the reply shown at its end', null],
  ['7 Long reply', 'window.long.reply_children_in_page', '… of the reply\'s blocks, in the page', null],
  ['7 Long reply', 'window.long.stop.click_to_painted.max', 'window: Stop in the reply → "Stopped" painted, the slowest of 3', ['<=', 50]],
  ['7 Long reply', 'window.long.stop_at_25_pct.click_to_dom', 'window: Stop at 25% → "Stopped" shown', ['<=', 50]],
  ['7 Long reply', 'window.long.stop_at_50_pct.click_to_dom', 'window: Stop at 50% → "Stopped" shown', ['<=', 50]],
  ['7 Long reply', 'window.long.stop_at_75_pct.click_to_dom', 'window: Stop at 75% → "Stopped" shown', ['<=', 50]],
  ['7 Long reply', 'window.long.stop_at_75_pct.longest_task', '… longest main-thread task in that reply', null],
  ['7 Long reply', 'desktop.stop.click_to_painted.median', 'production window: Stop in a 5 MB reply, click → shown stopped (pixels), median', ['<=', 50]],
  ['7 Long reply', 'desktop.stop.click_to_painted.max', '… the slowest', ['<=', 50]],
  ['7 Long reply', 'desktop.bare.stop.click_to_painted.median', '… the bare Wails window\'s Stop (a call to Go, an event back), median: the floor', null],
  ['7 Long reply', 'desktop.stop.click_to_painted.median_over_bare', '… Errand\'s median over the floor', null],
  ['7 Long reply', 'desktop.stop.at_25_pct.click_to_painted.median', '… at 25% of the reply, median', null],
  ['7 Long reply', 'desktop.stop.at_50_pct.click_to_painted.median', '… at 50%, median', null],
  ['7 Long reply', 'desktop.stop.at_75_pct.click_to_painted.median', '… at 75%, median', null],
  ['7 Long reply', 'desktop.paced.stop.click_to_painted.median', 'production window: Stop while a 5 MB reply streams at 1,000 tokens/s, median', ['<=', 50]],
  ['7 Long reply', 'desktop.paced.stop.click_to_painted.max', '… the slowest', ['<=', 50]],
  ['7 Long reply', 'desktop.paced.bare.stop.click_to_painted.median', '… the bare Wails window\'s Stop while Go streams it 1,000 words/s, median: the floor', null],
  ['7 Long reply', 'desktop.paced.stop.click_to_painted.median_over_bare', '… Errand\'s median over that floor', null],
  ['7 Long reply', 'desktop.paced.stop.at_25_pct.click_to_painted.median', '… at 25% of the reply, median', null],
  ['7 Long reply', 'desktop.paced.stop.at_50_pct.click_to_painted.median', '… at 50%, median', null],
  ['7 Long reply', 'desktop.paced.stop.at_75_pct.click_to_painted.median', '… at 75%, median', null],
  ['7 Long reply', 'desktop.cpu.idle', 'production window: CPU of Go + WebKit, idle after the stops (% of one CPU)', null],
  ['7 Long reply', 'desktop.cpu.task_waiting', '… while a task waits for the model (its spinners on)', null],
  ['7 Long reply', 'store.append.first_fifth', 'store: an append to the first MB of a 5 MB message', null],
  ['7 Long reply', 'store.append.last_fifth', 'store: an append to its last MB', null],
  ['7 Long reply', 'store.append.last_over_first', 'store: last MB / first MB ("linear": ≤ 2)', ['<=', 2]],
  ['7 Long reply', 'store.append.total', 'store: 5 MB in 2 KB appends, in all', null],
  ['7 Long reply', 'store.append.read_streaming', 'store: read the 5 MB message while it streams', null],
  ['15 Search', 'store.search.messages', 'messages in the search index', null],
  ['15 Search', 'store.search.p50', 'a search as typed, p50', null],
  ['15 Search', 'store.search.p99', 'a search as typed, p99', ['<=', 50]],
  ['15 Search', 'store.search.max', 'a search as typed, slowest', null],
  ['8 Context', 'context.empty.step_own', 'a step in an empty conversation: Errand\'s own time', ['<=', 1]],
  ['8 Context', 'context.10k_messages.step_own', 'a step in a 10,000-message conversation: Errand\'s own time', ['<=', 1]],
  ['8 Context', 'context.10k_messages.step_store', '… of which SQLite calls', null],
  ['8 Context', 'context.10k_messages.first_step_own', 'its first step: history read once and summarised', null],
  ['8 Context', 'context.tokens_counted_per_s', 'tokens counted per second (o200k_base)', null],
  ['9 MCP', 'mcp.call.builtin.p50', 'a built-in tool call (read_file, validated and run), p50', null],
  ['9 MCP', 'mcp.call.stdio.p50', 'an MCP tool call over stdio (server-everything echo), p50', null],
  ['9 MCP', 'mcp.call.stdio.p99', '… p99', null],
  ['9 MCP', 'mcp.call.http.p50', 'an MCP tool call over Streamable HTTP (in-process SDK server), p50', null],
  ['9 MCP', 'mcp.call.http.p99', '… p99', null],
  ['16 Attachments', 'attach.photo12mp.send_to_request_ms.median', 'a 12-megapixel photo: Add → Send → request leaving the adapter, median', null],
  ['16 Attachments', 'attach.photo12mp.add_ms.median', '… of which Add (check, decode, downscale, store)', null],
  ['16 Attachments', 'attach.photo12mp.allocated.median', '… bytes allocated', null],
  ['16 Attachments', 'attach.photo12mp.heap_peak.median', '… heap peak above its level before', null],
];

const fmt = (v) => (Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(v >= 10 ? 1 : 2));
const unitOf = (f) => (f.unit === 'count' || f.unit === 'bool' ? '' : ` ${f.unit}`);
const ok = (v, [op, t]) => (op === '<=' ? v <= t : op === '>=' ? v >= t : v === t);

const table = [];
const missing = [];
for (const [section, name, label, target] of rows) {
  const f = figures.get(name);
  if (!f) {
    missing.push(name);
    continue;
  }
  let verdict = '';
  if (target) {
    const met = ok(f.value, target);
    verdict = smoke ? `(smoke: ${met ? 'meets' : 'misses'})` : met ? 'meets' : 'MISSES';
  }
  table.push([section, label, `${fmt(f.value)}${unitOf(f)}`, target ? `${target[0] === '==' ? '=' : target[0] === '<=' ? '≤' : '≥'} ${target[1]}${unitOf(f)}` : '', verdict, name]);
}
const listed = new Set(rows.map((r) => r[1]));
const others = [...figures.values()].filter((f) => !listed.has(f.name));

if (markdown) {
  console.log('| | figure | value | target | verdict |');
  console.log('|---|---|---|---|---|');
  for (const r of table) console.log(`| ${r[0]} | ${r[1]} | ${r[2]} | ${r[3]} | ${r[4]} |`);
} else {
  const head = ['', 'figure', 'value', 'target', 'verdict'];
  const all = [head, ...table.map((r) => r.slice(0, 5))];
  const w = head.map((_, i) => Math.max(...all.map((r) => [...String(r[i])].length)));
  const line = (r) => r.map((c, i) => String(c).padEnd(w[i] + ([...String(c)].length - String(c).length))).join('  ');
  console.log(line(head));
  console.log(w.map((n) => '-'.repeat(n)).join('  '));
  let last = '';
  for (const r of table) {
    console.log(line([r[0] === last ? '' : r[0], ...r.slice(1, 5)]));
    last = r[0];
  }
  if (others.length) {
    console.log(`\nother figures: ${others.map((f) => `${f.name}=${fmt(f.value)}${unitOf(f)}`).join(', ')}`);
  }
}
if (missing.length) {
  console.error(`\nmissing figures (a measurement did not run or broke): ${missing.join(', ')}`);
  process.exit(1);
}
