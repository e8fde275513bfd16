// Logbook writes one property of a settings file the user may have written by hand (comments,
// trailing commas, tabs): only that property's text changes.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkJsonc, JsoncSyntaxError, setJsoncProperty } from '../../../src/core/settings/jsonc-edit';

describe('setting one property of a JSON-with-comments settings file', () => {
  it('replaces a value in place, keeping comments, order and tabs', () => {
    const text = '{\n\t// mine\n\t"a": 1, /* kept */\n\t"b": [1,\n\t\t2],\n\t"c": true,\n}\n';
    assert.equal(
      setJsoncProperty(text, ['b'], ['x', 'y']),
      '{\n\t// mine\n\t"a": 1, /* kept */\n\t"b": [\n\t\t"x",\n\t\t"y"\n\t],\n\t"c": true,\n}\n',
    );
  });

  it("adds a property after the last one, in the file's indentation and line ends", () => {
    assert.equal(
      setJsoncProperty('{\r\n  "a": 1 // one\r\n}\r\n', ['b'], { k: 2 }),
      '{\r\n  "a": 1,\r\n  "b": {\r\n    "k": 2\r\n  } // one\r\n}\r\n',
    );
    // A file on one line is laid out afresh, as VS Code's own settings editor does.
    assert.equal(setJsoncProperty('{"a":1}', ['b'], [2]), '{\n    "a": 1,\n    "b": [\n        2\n    ]\n}');
  });

  it('makes the file, or the objects on the way, when missing', () => {
    assert.equal(setJsoncProperty('', ['x.y'], 'v'), '{\n    "x.y": "v"\n}\n');
    assert.equal(setJsoncProperty('{}', ['x'], 1), '{\n    "x": 1\n}');
    assert.equal(
      setJsoncProperty('{\n\t"folders": []\n}', ['settings', 'k'], true),
      '{\n\t"folders": [],\n\t"settings": {\n\t\t"k": true\n\t}\n}',
    );
    assert.equal(
      setJsoncProperty('{\n  "settings": {\n    "a": 1\n  }\n}', ['settings', 'b'], 2),
      '{\n  "settings": {\n    "a": 1,\n    "b": 2\n  }\n}',
    );
  });

  it('removes a property with its comma and its line, and every copy of a key written twice', () => {
    assert.equal(
      setJsoncProperty('{\n  "a": 1,\n  "b": 2,\n  "c": 3\n}', ['b'], undefined),
      '{\n  "a": 1,\n  "c": 3\n}',
    );
    assert.equal(setJsoncProperty('{\n  "a": 1,\n  "b": 2\n}', ['b'], undefined), '{\n  "a": 1\n}');
    assert.equal(setJsoncProperty('{ "b": 2 }', ['b'], undefined), '{ }');
    assert.equal(setJsoncProperty('{\r\n  "a": 1,\r\n  "b": 2\r\n}', ['b'], undefined), '{\r\n  "a": 1\r\n}');
    assert.equal(setJsoncProperty('{"b": 1, "a": 0, "b": 2}', ['b'], undefined), '{"a": 0}');
    assert.equal(setJsoncProperty('{"a": 0}', ['gone'], undefined), '{"a": 0}');
    assert.equal(setJsoncProperty('', ['gone'], undefined), '');
  });

  it('keeps the comments around a removed property', () => {
    const text = '{\n  // about a\n  "a": 1, // one\n  "b": 2 // two\n}';
    assert.equal(setJsoncProperty(text, ['a'], undefined), '{\n  // about a\n  // one\n  "b": 2 // two\n}');
    assert.equal(setJsoncProperty(text, ['b'], undefined), '{\n  // about a\n  "a": 1 // one\n  // two\n}');
  });

  it('keeps the comments of a file that holds no object yet, and replaces a value that is no object on the way', () => {
    assert.equal(
      setJsoncProperty('// mine\r\n', ['a', 'b'], 1),
      '// mine\r\n{\r\n    "a": {\r\n        "b": 1\r\n    }\r\n}\r\n',
    );
    assert.equal(setJsoncProperty('{\n  "s": 3\n}', ['s', 'k'], true), '{\n  "s": {\n    "k": true\n  }\n}');
    assert.equal(setJsoncProperty('{\n  "s": 3\n}', ['s', 'k'], undefined), '{\n  "s": 3\n}');
  });

  it('changes the last copy of a key written twice, the one readers take, or says which key it is', () => {
    assert.equal(setJsoncProperty('{"b": 1, "a": 0, "b": 2}', ['b'], 5), '{"b": 1, "a": 0, "b": 5}');
    assert.equal(
      setJsoncProperty('{"s": {"a": 1}, "s": {"a": 2}}', ['s', 'a'], 5),
      '{"s": {"a": 1}, "s": {"a": 5}}',
    );
    assert.throws(
      () => setJsoncProperty('{"s": {}, "s": {"a": 1}}', ['s', 'b'], 5),
      (err: unknown) => err instanceof JsoncSyntaxError && /"s" written twice/.test(err.message),
    );
  });

  it('keeps a byte order mark', () => {
    assert.equal(setJsoncProperty('\uFEFF{"a": 1}', ['a'], 2), '\uFEFF{"a": 2}');
  });

  it('refuses text that is not JSON with comments, saying where', () => {
    for (const bad of [
      '{"a": 1',
      '{"a" 1}',
      '[1, 2]',
      '{"a": 1} x',
      '{"a": tru}',
      '{/* open',
      '{"a": "b\n"}',
      '{"\\q": 1}',
    ])
      assert.throws(() => setJsoncProperty(bad, ['a'], 2), JsoncSyntaxError, bad);
    assert.throws(
      () => setJsoncProperty('{\n  "a": 1\n  "b": 2\n}', ['a'], 2),
      (err: unknown) => err instanceof JsoncSyntaxError && err.message === 'a comma missing at offset 13',
    );
    assert.doesNotThrow(() => checkJsonc('// only a comment\n'));
  });

  it('for any object written by JSON.stringify, gives what setting or deleting the key gives', () => {
    const key = fc.oneof(fc.constantFrom('a', 'logbook.x', 'b"q'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
        key,
        fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
        fc.constantFrom(0, 2, '\t'),
        (object, k, value, space) => {
          const text = JSON.stringify(object, null, space);
          const expected: Record<string, unknown> = { ...object };
          if (value === undefined) delete expected[k];
          else expected[k] = value;
          // JSON.parse keeps -0 as written, JSON.stringify writes it as 0: compare as written.
          const out = JSON.parse(setJsoncProperty(text, [k], value)) as unknown;
          assert.deepEqual(JSON.parse(JSON.stringify(out)), JSON.parse(JSON.stringify(expected)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
