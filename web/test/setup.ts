import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// `waitFor` and `findBy*` give up after 1 s by default. The suite runs beside the server's suite and
// its browser tests on a small machine, where a render that takes milliseconds alone can take seconds:
// such waits gave up there while the page was about to show what they waited for.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => cleanup());
