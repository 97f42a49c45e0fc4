import { zkWaitingAnswers } from '@hush/zk/client';
import type { Command } from '../command.ts';
import { callApi } from '../api.ts';

/** `hush answers`: the answers to your requests that wait to be read, one `link<TAB>label` per line. */
export const answersCommand: Command = {
  summary: 'list the answers to your requests that wait to be read',
  usage: `Usage: hush answers [--url URL]

Lists the secrets sent through your requests and not read yet, newest first: one line each, its link
(without a key: hush read opens it with the request's opening key), a tab, and the request's label.
Looking marks them "viewed" on their receipts.`,
  options: {},
  async run({ settings, out, note }) {
    const answers = await callApi(settings, zkWaitingAnswers, 'Answers are read by the account that asked');
    if (answers.length === 0) note('No answer is waiting.\n');
    for (const answer of answers) out(`${answer.link}\t${answer.label}\n`);
  },
};
