// The tasks the demo model has a script for, apart from the scripts themselves, so the editor can
// offer them in the empty chat without loading the demo (which loads only when it is used).
export const DEMO_TASK = 'Add a subtract function to src/math.js';
export const DEMO_EXPLAIN_TASK = 'Explain @src/math.js';

/** The tasks the demo has a script for, as the empty chat offers them. */
export const DEMO_TASKS = [DEMO_TASK, DEMO_EXPLAIN_TASK] as const;
