/**
 * How a generated case is judged. Definite defects fail: a hang on valid input, a dead process, an internal
 * error (-32603) on valid input, a success for invalid input, a result that breaks the outputSchema or lacks the
 * structuredContent it declares, malformed content (a schema violation on the wire), a listed resource that
 * cannot be read, a prompt with no messages. Doubts warn: a tool error on valid input (the tool may need real
 * data), invalid input refused in the other era's form.
 */
import { commonProblems, describeAnswer, inputRejectionForm, type Verdict } from '../expect/evaluate.js';
import { outputSchemaProblems } from '../expect/output-schema.js';
import type { TestCase } from '../model.js';
import type { Observation } from '../run/observation.js';

export function judgeGenerated(test: TestCase, observation: Observation): Verdict {
  const verdict: Verdict = { failures: [], warnings: [], notes: [] };
  const { failures, warnings } = verdict;
  const kind = test.expect.generated;
  const problems = commonProblems(observation);
  const wire = problems.filter((p) => p.startsWith('schema violation'));
  failures.push(...wire);
  if (observation.failure !== undefined) {
    if (observation.failure.kind === 'timeout') {
      const message = `hang: no answer within ${test.timeoutMs ?? 'the time limit'} ms`;
      if (observation.progress.length > 0)
        warnings.push(
          `still working after ${test.timeoutMs ?? 'the time limit'} ms (it reported progress); stopped waiting`,
        );
      else if (kind === 'invalid') warnings.push(`${message} on invalid input`);
      else failures.push(`${message} on valid input`);
    } else failures.push(`no answer: ${observation.failure.message}`);
    return verdict;
  }
  const result = observation.result;
  const error = observation.error;
  if (test.action.kind === 'resource') {
    if (error !== undefined)
      failures.push(`a listed resource cannot be read: ${describeAnswer(observation)}`);
    return verdict;
  }
  if (test.action.kind === 'prompt') {
    // Prompt arguments have no schema: values tried for required ones are guesses, so errors then only warn.
    const guessed = Object.keys(test.action.arguments).length > 0;
    if (error !== undefined) {
      if (error.code === -32603 && !guessed)
        failures.push(`internal error getting the prompt: ${describeAnswer(observation)}`);
      else
        warnings.push(
          `the prompt was refused${guessed ? ' with the arguments tried' : ''}: ${describeAnswer(observation)}`,
        );
    } else if (!Array.isArray(result?.['messages']) || result['messages'].length === 0)
      failures.push('the prompt has no messages');
    return verdict;
  }
  if (kind === 'valid') {
    if (error !== undefined) {
      if (error.code === -32603)
        failures.push(`internal error on valid input: ${describeAnswer(observation)}`);
      else warnings.push(`valid input refused: ${describeAnswer(observation)}`);
    } else if (result?.['isError'] === true)
      warnings.push(`tool error on valid input (it may need real data): ${describeAnswer(observation)}`);
    else if (result !== undefined) failures.push(...outputSchemaProblems(observation.tool, result));
    return verdict;
  }
  // Invalid input.
  const isToolError = result?.['isError'] === true;
  if (error === undefined && !isToolError) {
    failures.push(`success for invalid input: ${describeAnswer(observation)}`);
    return verdict;
  }
  const form = inputRejectionForm(observation.revision);
  if (form === 'tool-error' && !isToolError)
    warnings.push(
      `invalid input refused with ${describeAnswer(observation)}; from 2025-11-25 input validation errors are isError results`,
    );
  if (form === 'protocol-error' && error?.code !== -32602)
    warnings.push(
      `invalid input refused with ${describeAnswer(observation)}; before 2025-11-25 invalid arguments are JSON-RPC error -32602`,
    );
  return verdict;
}
