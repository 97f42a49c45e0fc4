import { join } from 'node:path';
import type { Settings } from '../settings.ts';
import { readPrivateJson, withFileLock, writePrivateJson } from '../private-files.ts';

/**
 * The opening keys of the requests made here (docs/zero-knowledge.md §5), in `requests.json` of
 * hush's folder (0600): only they open the answers, and the service never had them. A key is
 * forgotten once its answer has been read.
 */
export interface KeptRequest {
  id: string;
  label: string;
  link: string;
  opening_key: string;
  created: number;
}

interface RequestsFile {
  version: 1;
  requests: KeptRequest[];
}

const pathOf = (settings: Pick<Settings, 'configDir'>) => join(settings.configDir, 'requests.json');

export async function keptRequests(settings: Pick<Settings, 'configDir'>): Promise<KeptRequest[]> {
  const file = await readPrivateJson<RequestsFile>(pathOf(settings));
  return file?.version === 1 && Array.isArray(file.requests) ? file.requests : [];
}

async function change(settings: Pick<Settings, 'configDir'>, edit: (requests: KeptRequest[]) => KeptRequest[]): Promise<void> {
  const path = pathOf(settings);
  await withFileLock(path, async () => writePrivateJson(path, { version: 1, requests: edit(await keptRequests(settings)) } satisfies RequestsFile));
}

export const keepRequest = (settings: Pick<Settings, 'configDir'>, request: KeptRequest) => change(settings, (requests) => [request, ...requests]);

export const forgetOpeningKey = (settings: Pick<Settings, 'configDir'>, openingKey: string) => change(settings, (requests) => requests.filter((r) => r.opening_key !== openingKey));

export const requestsPath = pathOf;
