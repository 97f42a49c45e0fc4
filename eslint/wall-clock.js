// A lint rule for tests: no assertion on a measured duration. How long something took depends on
// the machine and on what else it runs; a test that asserts "answered within 1,000 ms" fails on a
// busy CI machine while the code is right. Assert the outcome instead, or prove the mechanism that
// bounds the time (a timeout the code sets, a circuit that opens); a fault test that must check a
// deadline the code itself enforces says so, and its margin, in an eslint-disable comment.
//
// A duration, for this rule, is: the difference of two clock readings (Date.now(), performance.now(),
// process.hrtime()); an event-loop delay histogram (monitorEventLoopDelay); a value whose name says it is one (ms, elapsed, duration,
// latency, took); and, within the file, whatever is computed from a duration: a variable, an array
// it was pushed onto, a property it was stored in, a function returning it. An assertion is an
// `expect(subject).matcher(...args)` chain; it is reported when the subject or an argument holds a
// duration.

const CLOCK_CALLS = new Set(['Date.now', 'performance.now', 'process.hrtime', 'process.hrtime.bigint']);
/** Calls whose result holds durations (an event-loop delay histogram's min, max, mean, percentiles). */
const DURATION_SOURCES = new Set(['monitorEventLoopDelay', 'perf_hooks.monitorEventLoopDelay', 'createHistogram']);
const DURATION_PROPERTIES = /^(ms|elapsed|elapsedMs|duration|durationMs|latency|latencyMs|took|tookMs)$/;

/** `a.b.c` for a chain of identifiers, otherwise undefined. */
function dotted(node) {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') {
    const object = dotted(node.object);
    return object && `${object}.${node.property.name}`;
  }
  return undefined;
}

/** Every node under `node` (itself included), skipping the parent links ESLint adds. */
function* nodesOf(node) {
  yield node;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent' || !value || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const child of value) if (child && typeof child.type === 'string') yield* nodesOf(child);
    } else if (typeof value.type === 'string') yield* nodesOf(value);
  }
}

const isFunction = (node) => node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression' || node.type === 'FunctionDeclaration';

/** What the file's names hold: clock readings, durations, and functions returning durations. */
function analyse(program) {
  const clocks = new Set(); // variables holding a clock reading (a start, a deadline)
  const durations = new Set(); // variables and arrays holding durations, functions returning one
  const properties = new Set(); // object properties a duration was stored in

  const isClockCall = (node) => node.type === 'CallExpression' && CLOCK_CALLS.has(dotted(node.callee) ?? '');
  const isClock = (node) =>
    isClockCall(node) ||
    (node.type === 'Identifier' && clocks.has(node.name)) ||
    (node.type === 'BinaryExpression' && (node.operator === '+' || node.operator === '-') && isClock(node.left) && !isClock(node.right));

  const returnsDuration = (fn) => {
    if (fn.body.type !== 'BlockStatement') return isDuration(fn.body);
    for (const n of nodesOf(fn.body)) if (n.type === 'ReturnStatement' && n.argument && isDuration(n.argument)) return true;
    return false;
  };

  /** Whether `node`'s value is a duration or computed from one (a count of slow answers, a ratio of medians). */
  function isDuration(node) {
    switch (node.type) {
      case 'Identifier':
        return durations.has(node.name);
      case 'MemberExpression':
        if (!node.computed && node.property.type === 'Identifier' && (properties.has(node.property.name) || DURATION_PROPERTIES.test(node.property.name))) return true;
        return isDuration(node.object);
      case 'CallExpression':
        if (isClockCall(node)) return node.arguments.length > 0; // process.hrtime(start)
        if (DURATION_SOURCES.has(dotted(node.callee) ?? '')) return true;
        if (node.callee.type === 'Identifier' && durations.has(node.callee.name)) return true;
        if (node.callee.type === 'MemberExpression' && isDuration(node.callee.object)) return true;
        return node.arguments.some((arg) => (isFunction(arg) ? returnsDuration(arg) : isDuration(arg)));
      case 'BinaryExpression':
        if (node.operator === '-' && isClock(node.left) && isClock(node.right)) return true;
        return isDuration(node.left) || isDuration(node.right);
      case 'LogicalExpression':
        return isDuration(node.left) || isDuration(node.right);
      case 'ConditionalExpression':
        return isDuration(node.consequent) || isDuration(node.alternate);
      case 'UnaryExpression':
      case 'AwaitExpression':
      case 'SpreadElement':
        return isDuration(node.argument);
      case 'TSAsExpression':
      case 'TSNonNullExpression':
      case 'ChainExpression':
        return isDuration(node.expression);
      case 'ArrayExpression':
        return node.elements.some((element) => element && isDuration(element));
      default:
        return false;
    }
  }

  const all = [...nodesOf(program)];
  for (let changed = true, passes = 0; changed && passes < 10; passes++) {
    const before = clocks.size + durations.size + properties.size;
    for (const node of all) {
      if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.init) {
        if (isFunction(node.init) ? returnsDuration(node.init) : isDuration(node.init)) durations.add(node.id.name);
        else if (isClock(node.init)) clocks.add(node.id.name);
      } else if (node.type === 'FunctionDeclaration' && node.id && returnsDuration(node)) durations.add(node.id.name);
      else if (node.type === 'AssignmentExpression' && node.left.type === 'Identifier' && isDuration(node.right)) durations.add(node.left.name);
      else if (node.type === 'Property' && !node.computed && node.key.type === 'Identifier' && !isFunction(node.value) && isDuration(node.value)) properties.add(node.key.name);
      else if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && node.callee.object.type === 'Identifier') {
        const method = node.callee.property.type === 'Identifier' ? node.callee.property.name : '';
        if ((method === 'push' || method === 'unshift') && node.arguments.some(isDuration)) durations.add(node.callee.object.name);
      }
    }
    changed = clocks.size + durations.size + properties.size !== before;
  }
  return isDuration;
}

/** For `expect(subject).not.toBeLessThan(arg)`: the expect call, or undefined when `node` is not a matcher call. */
function expectationOf(node) {
  if (node.callee.type !== 'MemberExpression') return undefined;
  let object = node.callee.object;
  while (object.type === 'MemberExpression') object = object.object;
  if (object.type === 'CallExpression' && object.callee.type === 'Identifier' && object.callee.name === 'expect') return object;
  return undefined;
}

export const noWallClockAssertions = {
  meta: {
    type: 'problem',
    docs: { description: 'forbids asserting on a measured duration in tests' },
    messages: {
      wallClock:
        'Asserts on a measured duration, which a busy machine lengthens: assert the outcome or the mechanism that bounds the time (a deadline the code enforces: disable with the margin and why).',
    },
    schema: [],
  },
  create(context) {
    let isDuration;
    return {
      Program(program) {
        isDuration = analyse(program);
      },
      CallExpression(node) {
        const expectation = expectationOf(node);
        if (!expectation) return;
        // An object asserted whole (`expect({ slow, failed }).toEqual(...)`) is checked field by field.
        const values = (arg) => (arg.type === 'ObjectExpression' ? arg.properties.map((p) => (p.type === 'Property' ? p.value : p)) : [arg]);
        if ([...expectation.arguments, ...node.arguments].flatMap(values).some(isDuration)) context.report({ node, messageId: 'wallClock' });
      },
    };
  },
};

export default { rules: { 'no-wall-clock-assertions': noWallClockAssertions } };
