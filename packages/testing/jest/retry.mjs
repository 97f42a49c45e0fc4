// A test that fails is run once more, its first failure printed in full: a failure that does not
// repeat still shows in the log (search for "retry"), while one unlucky timing on a busy CI machine
// does not stop the run. A test that fails twice fails the run.
import { jest } from '@jest/globals';

jest.retryTimes(1, { logErrorsBeforeRetry: true });
