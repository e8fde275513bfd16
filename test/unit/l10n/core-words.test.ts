// The words the core and the Node host make for people go through the host's translator: the CLI's
// English stays as it was, and the editor's translator (here one reading the zh-cn bundle, as
// vscode.l10n does) turns every one of them, so none stays English in the Diagnostics view, the
// verify message or the sandbox status.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diagnosticsText, section } from '../../../src/core/diagnostics/report';
import type { VerifyResult } from '../../../src/core/signing';
import { verifyReport } from '../../../src/core/signing';
import { ENGLISH, errorText, fillHoles, type L10n, WordedError } from '../../../src/core/text/l10n';
import { endpointRows } from '../../../src/host/node/diagnostics/endpoint-probe';
import { mcpRows, sandboxRows, signingRows, storageRows } from '../../../src/host/node/diagnostics/rows';
import {
  describeSandbox,
  probeSandbox,
  sandboxReport,
  sandboxReportText,
} from '../../../src/host/node/sandbox';
import { conversationRow, shortWhen } from '../../../src/host/vscode/conversations/conversation-row';
import { diagnosticsHtml } from '../../../src/host/vscode/diagnostics/diagnostics-html';

const root = join(__dirname, '..', '..', '..');
const read = (file: string) =>
  JSON.parse(readFileSync(join(root, 'l10n', file), 'utf8')) as Record<string, string>;
const english = read('bundle.l10n.json');
const chinese = read('bundle.l10n.zh-cn.json');

/** A translator like vscode.l10n's in zh-cn, which also notes each message it was asked for. */
function recording(): L10n & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    t: (message, ...args) => (asked.push(message), fillHoles(chinese[message] ?? message, args)),
  };
}

const day = 24 * 60 * 60 * 1000;
const now = new Date('2026-06-30T00:00:00Z');
const old = [
  {
    storeDir: '/s',
    conversationId: 'c1',
    newest: new Date(now.getTime() - 45 * day),
    why: { deleted: false as const, days: 45 },
  },
];

function allRows(l10n: L10n) {
  return [
    ...sandboxRows(
      sandboxReport(
        { state: { kind: 'off' }, workspaces: ['/w'], writable: [], hidden: [], allowedHosts: [] },
        l10n,
      ),
      l10n,
    ),
    ...mcpRows(
      {
        servers: [
          { server: 'fs', transport: 'stdio', state: 'running', tools: 3 },
          { server: 'web', transport: 'http', state: 'failed', tools: 0, problem: 'ECONNREFUSED' },
        ] as never,
        problems: ['servers.x: no command'],
      },
      l10n,
    ),
    ...signingRows('did:key:z6Mk', 'the key file', undefined, l10n),
    ...signingRows(null, 'the key file', undefined, l10n),
    ...storageRows(
      { conversations: [], stores: [{ storeDir: '/s', bytes: 2048, held: old }], old, olderThanDays: 30 },
      l10n,
    ),
    ...endpointRows(
      { baseUrl: 'https://api.example.com/v1', model: 'gpt-x' },
      { reachable: true, status: 200, models: ['gpt-y'] },
      { setKey: 'set the key', baseUrl: 'the base URL' },
      l10n,
    ),
  ];
}

const verified: VerifyResult = {
  status: 'verified',
  events: 12,
  verified: 12,
  signers: ['did:key:me'],
  signedBy: [{ did: 'did:key:me', from: 0, to: 11 }],
  imported: 0,
  importedRanges: [],
  late: [],
  firstBad: null,
  conversation: 'c1',
  completeness: { state: 'complete' } as VerifyResult['completeness'],
};
const trust = { you: ['did:key:me'], known: new Map<string, string>() };

describe('the words of the core and the Node host', () => {
  it('fills numbered holes in the translation’s order and keeps a hole without an argument', () => {
    assert.equal(fillHoles('{1} 的 {0}', ['a', 'b']), 'b 的 a');
    assert.equal(fillHoles('{0} events, {2}', [3]), '3 events, {2}');
  });

  it('stay English for the CLI', () => {
    const rows = allRows(ENGLISH);
    assert.deepEqual(rows.map((r) => r.label).slice(0, 2), ['State', 'Hosts commands may reach']);
    assert.ok(rows.some((r) => r.value === 'running, 3 tool(s)'));
    assert.equal(
      verifyReport(verified, trust).summary,
      '12 events verified, signed by you; none missing (checked against the head kept outside the folder)',
    );
    assert.equal(
      sandboxReportText(
        sandboxReport({ state: { kind: 'off' }, workspaces: [], writable: [], hidden: [], allowedHosts: [] }),
      ).split('\n')[0],
      describeSandbox({ kind: 'off' }).headline,
    );
  });

  it('ask the translator only for messages the bundle holds, and come out translated', () => {
    const l10n = recording();
    const rows = allRows(l10n);
    const report = { sections: [section('storage', rows, l10n)] };
    const text = diagnosticsText(report, l10n);
    const html = diagnosticsHtml({
      report,
      oldCount: 1,
      cspSource: 'x',
      codiconCss: 'c.css',
      nonce: 'n',
      l10n,
      lang: 'zh-cn',
    });
    const summary = verifyReport(verified, trust, l10n).summary;
    const sandbox = sandboxReportText(
      sandboxReport(
        { state: { kind: 'off' }, workspaces: ['/w'], writable: [], hidden: ['/h'], allowedHosts: [] },
        l10n,
      ),
      l10n,
    );
    const row = conversationRow(
      { title: undefined, updated: undefined, status: 'waiting_for_confirmation', interrupted: 'gone' },
      now,
      { l10n, locale: 'zh-cn' },
    );

    const unknown = [...new Set(l10n.asked)].filter((m) => !(m in english));
    assert.deepEqual(unknown, [], 'every message asked for is in l10n/bundle.l10n.json');
    assert.ok(l10n.asked.length > 40, String(l10n.asked.length));
    // Each is said in Chinese.
    assert.equal(rows[0]!.label, '状态');
    assert.ok(
      rows.some((r) => r.value === '运行中，3 个工具'),
      JSON.stringify(rows),
    );
    assert.ok(rows.some((r) => r.label === '旧检查点' && r.fix?.startsWith('清理它们')));
    assert.match(text, /^存储: 无法工作$/m);
    assert.match(text, /^ {7}解决：/m);
    assert.match(html, /<html lang="zh-cn">/);
    assert.match(html, />重新检查</);
    assert.match(html, />清理旧检查点…</);
    assert.match(html, /aria-label="需要注意"/);
    assert.equal(summary, '已验证 12 个事件，由 你 签名；没有缺失（已对照保存在文件夹外的头记录检查）');
    assert.match(sandbox, /^沙箱已关闭/);
    assert.match(sandbox, /\n隐藏（不可读）:\n {2}\/h（不存在）\n/);
    assert.equal(row.label, '等待批准，已中断 · 新对话');
  });

  it('times of the Conversations view follow the display language, on a 24-hour clock', () => {
    const local = new Date(2026, 10, 26, 15, 0);
    const earlier = new Date(2026, 10, 25, 9, 7).toISOString();
    assert.equal(shortWhen(earlier, local, 'en'), 'Nov 25 09:07');
    assert.equal(shortWhen(earlier, local, 'zh-cn'), '11月25日 09:07');
    assert.equal(shortWhen(new Date(2026, 10, 26, 14, 5).toISOString(), local, 'zh-cn'), '14:05');
    assert.equal(shortWhen(earlier, local, 'not a locale!'), 'Nov 25 09:07');
  });
});

describe('an error a person reads', () => {
  it('is English as an Error, and in the host’s words when shown', () => {
    const err = new WordedError((l10n) => l10n.t('{0} is in no folder of this workspace.', 'x/a.ts'));
    assert.equal(err.message, 'x/a.ts is in no folder of this workspace.');
    assert.equal(errorText(err), err.message);
    assert.equal(errorText(err, recording()), 'x/a.ts 不在此工作区的任何文件夹中。');
    assert.equal(errorText(new Error('plain'), recording()), 'plain');
    assert.equal(errorText('thrown text'), 'thrown text');
  });
});

describe('why no sandbox can start', () => {
  it('is English in the state the log records, and in the editor’s language when described', () => {
    const found = probeSandbox(undefined, 'win32');
    assert.ok(!found.available);
    assert.match(found.problem, /^Logbook has no sandbox for Windows yet/);
    const state = { kind: 'unavailable' as const, required: false, ...found };
    assert.match(
      describeSandbox(state).headline,
      /every command asks first\. Logbook has no sandbox for Windows/,
    );
    const zh = describeSandbox(state, recording());
    assert.equal(
      zh.headline,
      '命令在没有沙箱的情况下运行，因此每条命令都会先询问。Logbook 尚无适用于 Windows 的沙箱，因此智能体的命令以你的权限运行。',
    );
    assert.match(zh.fix ?? '', /^在 WSL（Remote - WSL）中打开文件夹/);
  });
});
