// Programs that change files: deleting, moving, permissions, in-place edits, raw disk writes.
import { hasOption, operands, optionValue, shortFlags } from './argv-options';
import { type Finding, high, low, medium } from './risk';
import type { ProgramRule } from './rule-types';
import { isExpandedAtRunTime, isRootOrHome, protectedWriteReason } from './sensitive-paths';
import { hasSubstitution } from './shell-parse';

const rm: ProgramRule = (args, { ctx }) => {
  const flags = shortFlags(args);
  const recursive = flags.has('r') || flags.has('R') || hasOption(args, null, 'recursive');
  const force = flags.has('f') || hasOption(args, null, 'force');
  const targets = operands(args);
  const findings: Finding[] = [];
  if (hasOption(args, null, 'no-preserve-root')) findings.push(high('deletes with --no-preserve-root'));
  const how = recursive ? `recursively${force ? ' and without asking' : ''}` : '';
  for (const target of targets) {
    // Judged as written and where it leads: `rm -rf /tmp/..` deletes /.
    const real = ctx.locate(target)?.real;
    const protectedReason = protectedWriteReason(target) ?? (real && protectedWriteReason(real));
    if (
      isRootOrHome(target) ||
      (real !== undefined && isRootOrHome(real)) ||
      target === '*' ||
      target === '.' ||
      target === '..' ||
      /^\.\.?\/\*?$/.test(target)
    ) {
      findings.push(
        high(`deletes ${target} ${how || 'files'}: the whole file system, home folder or current folder`),
      );
    } else if (protectedReason) {
      findings.push(high(`deletes from a protected location: ${protectedReason}`));
    } else if (recursive && (hasSubstitution(target) || /^\$\w+\/?$|^\$\{\w+\}\/?$/.test(target))) {
      findings.push(high(`deletes ${target} ${how}: a path decided at run time (an empty variable means /)`));
    } else if (recursive && (target.startsWith('/') || target.startsWith('~'))) {
      findings.push(...ctx.writeTarget(target, `deletes (${how})`));
      findings.push(medium(`deletes ${target} ${how}`));
    } else {
      // A relative path outside the workspace after a `cd` (cd /srv && rm -rf data) is judged there.
      findings.push(...ctx.writeBoundary(target, 'deletes'));
      findings.push(medium(`deletes ${target}${how ? ` ${how}` : ''}`));
    }
  }
  if (targets.length === 0) findings.push(medium('deletes files'));
  return findings;
};

const deleteFiles: ProgramRule = (args, { ctx }, name) => {
  const findings = operands(args).flatMap((target) => ctx.writeBoundary(target, 'deletes from'));
  return [...findings, medium(`${name} deletes ${operands(args).join(' ') || 'files'}`)];
};

const shred: ProgramRule = () => [high('destroys file contents beyond recovery')];

/** cp, mv, ln, install, rsync (local): every operand may be written (mv also removes the sources). */
const copyOrMove: ProgramRule = (args, { ctx }, name) => {
  const targets = operands(args, ['-t', '-S', '--suffix', '-m', '-o', '-g', '-e']);
  const dir = optionValue(args, 't', 'target-directory');
  const written = name === 'mv' ? targets : targets.slice(-1);
  if (dir) written.push(dir);
  const verb = name === 'mv' ? 'moves files in or out of' : 'writes to';
  const findings = written.flatMap((target) => ctx.writeBoundary(target, verb));
  return [...findings, medium(`${name} changes files (${targets.join(' ')})`)];
};

/** touch and mkdir create things; only where they create matters. */
const create: ProgramRule = (args, { ctx }, name) => {
  const findings = operands(args, ['-m', '-d', '-r', '-t']).flatMap((target) =>
    ctx.writeBoundary(target, 'creates'),
  );
  return [...findings, low(`${name} only creates files or folders`)];
};

const tee: ProgramRule = (args, { ctx }) => {
  const targets = operands(args);
  return targets.length === 0
    ? [low('tee only passes its input on')]
    : targets.flatMap((t) => ctx.writeTarget(t));
};

const truncate: ProgramRule = (args, { ctx }) =>
  operands(args, ['-s', '-r', '--size', '--reference']).flatMap((t) => ctx.writeTarget(t, 'cuts the file'));

const sed: ProgramRule = (args, { ctx }) => {
  const inPlace =
    args.some((a) => /^-[a-zA-Z]*i/.test(a) && !a.startsWith('--')) || hasOption(args, null, 'in-place');
  if (!inPlace) return [low('sed only prints')];
  const words = operands(args, ['-e', '-f', '--expression', '--file', '-l']);
  const hasScriptOption = hasOption(args, 'e', 'expression') || hasOption(args, 'f', 'file');
  const files = hasScriptOption ? words : words.slice(1);
  return [
    ...files.flatMap((file) => ctx.writeBoundary(file, 'edits in place')),
    medium(`edits ${files.join(' ') || 'files'} in place`),
  ];
};

const awk: ProgramRule = (args) => {
  if (args.includes('inplace') || hasOption(args, null, 'in-place')) return [medium('edits files in place')];
  const program = operands(args, ['-F', '-v', '-f'])[0] ?? '';
  if (/\bsystem\s*\(|\|\s*"|>\s*"|\|&|\bgetline\b/.test(program) || hasOption(args, 'f')) {
    return [medium('the awk program runs commands, writes files, or cannot be seen')];
  }
  return [low('awk only prints')];
};

const find: ProgramRule = (args, env) => {
  const findings: Finding[] = [];
  // Search roots come before the first expression word (-name, (, !...).
  const firstExpression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
  const roots = firstExpression === -1 ? args : args.slice(0, firstExpression);
  const wide = roots.some((r) => isRootOrHome(r) || isRootOrHome(env.ctx.locate(r)?.real ?? r));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-delete') {
      findings.push(
        wide
          ? high('deletes everything find matches under / or the home folder')
          : medium('deletes what find matches'),
      );
    } else if (['-exec', '-execdir', '-ok', '-okdir'].includes(arg)) {
      const end = args.findIndex((a, j) => j > i && (a === ';' || a === '+'));
      const inner = args.slice(i + 1, end === -1 ? args.length : end);
      const innerFindings = inner.length > 0 ? env.ctx.analyzeArgv(inner, env.site, env.command) : [];
      findings.push(...innerFindings);
      // `{}` stands for every file found: under / or the home folder, that is everything.
      if (wide && innerFindings.some((f) => f.risk !== 'LOW')) {
        findings.push(high(`runs ${inner[0] ?? 'a command'} on every file under ${roots.join(' ')}`));
      }
      i = end === -1 ? args.length : end;
    } else if (/^-f(print0?|printf|ls)$/.test(arg)) {
      findings.push(...env.ctx.writeTarget(args[i + 1] ?? ''));
    }
  }
  return findings.length > 0 ? findings : [low('find only lists files')];
};

const MODE = /^(?:[0-7]{3,4}|[ugoa]*[-+=][rwxXstugo]*(?:,[ugoa]*[-+=][rwxXstugo]*)*)$/;

const chmod: ProgramRule = (args, { ctx }) => {
  const recursive = shortFlags(args).has('R') || hasOption(args, null, 'recursive');
  const words = args.filter((a) => !/^-[RrfvcH]+$/.test(a) && !a.startsWith('--'));
  const mode = words.find((w) => MODE.test(w)) ?? '';
  const targets = words.filter((w) => w !== mode);
  const worldWritable = /^[0-7]*[2367]$/.test(mode) || /(^|,)[ugo]*[ao][ugo]*[+=][^,]*w/.test(mode);
  const findings: Finding[] = [];
  if (recursive && worldWritable)
    findings.push(high(`makes ${targets.join(' ')} writable by everyone, recursively`));
  for (const target of targets) {
    if (isRootOrHome(target)) findings.push(high(`changes permissions of ${target}`));
    else findings.push(...ctx.writeBoundary(target, 'changes permissions of'));
  }
  findings.push(
    worldWritable ? medium('makes files writable by everyone') : medium('changes file permissions'),
  );
  return findings;
};

const chown: ProgramRule = (args, { ctx }, name) => {
  const recursive = shortFlags(args).has('R') || hasOption(args, null, 'recursive');
  const targets = operands(args).slice(1);
  const findings: Finding[] = [];
  for (const target of targets) {
    if (isRootOrHome(target) || (recursive && isExpandedAtRunTime(target))) {
      findings.push(high(`${name} changes the owner of ${target}${recursive ? ' recursively' : ''}`));
    } else {
      findings.push(...ctx.writeBoundary(target, 'changes the owner of'));
    }
  }
  return [...findings, medium('changes file ownership')];
};

const dd: ProgramRule = (args, { ctx }) => {
  const output = args.find((a) => a.startsWith('of='))?.slice(3);
  if (output === undefined) return [medium('dd copies raw data')];
  const target = ctx.writeTarget(output, 'dd writes raw data to');
  return target.length === 0
    ? [low('dd writes nowhere lasting')]
    : [high(`dd writes raw data to ${output}`), ...target];
};

const tar: ProgramRule = (args) => {
  const first = args[0] ?? '';
  const listing = hasOption(args, 't', 'list') || /^[^-]*t/.test(first);
  return listing ? [low('tar only lists an archive')] : [medium('tar packs or unpacks files')];
};

const sort: ProgramRule = (args, { ctx }) => {
  const output = optionValue(args, 'o', 'output');
  return output === undefined ? [low('sort only prints')] : ctx.writeTarget(output);
};

const unzip: ProgramRule = (args) =>
  hasOption(args, 'l') || hasOption(args, 'v') ? [low('only lists an archive')] : [medium('unpacks files')];

export const FILE_RULES: Record<string, ProgramRule> = {
  rm,
  rmdir: deleteFiles,
  unlink: deleteFiles,
  shred,
  wipe: shred,
  srm: shred,
  cp: copyOrMove,
  mv: copyOrMove,
  ln: copyOrMove,
  install: copyOrMove,
  touch: create,
  mkdir: create,
  tee,
  truncate,
  sed,
  gsed: sed,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  find,
  chmod,
  chown,
  chgrp: chown,
  dd,
  tar,
  unzip,
  sort,
};
