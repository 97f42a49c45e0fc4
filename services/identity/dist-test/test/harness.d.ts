import { type IdentityApp } from '../src/app.js';
import { runCli } from '../src/cli/cli.js';
import { type Config } from '../src/config.js';
export interface Harness {
    url: string;
    issuer: string;
    env: NodeJS.ProcessEnv;
    config: Config;
    identity: IdentityApp;
    logs: string[];
    /** Runs the admin CLI as a shell would, with --json, and parses the output. */
    cli<T = Record<string, unknown>>(...args: string[]): Promise<T>;
    cliRaw(...args: string[]): ReturnType<typeof runCli>;
    close(): Promise<void>;
}
/**
 * Boots the real identity app on a random port against a fresh PostgreSQL database (migrated
 * through the CLI, as an operator would) and the real Redis, with a unique Redis key prefix.
 */
export declare function startIdentity(overrides?: Record<string, string>): Promise<Harness>;
/** An API plus a confidential client allowed some of its scopes: the usual test set-up. */
export declare function createApiAndClient(h: Harness, opts?: {
    grants?: string;
    scopes?: string;
    org?: string;
    redirectUri?: string;
    extraArgs?: string[];
}): Promise<{
    api: string;
    read: string;
    write: string;
    clientId: string;
    clientSecret: string;
}>;
/** POSTs a form to the token endpoint (or another), like curl -d. */
export interface FormResponse {
    status: number;
    headers: Headers;
    body: Record<string, unknown>;
}
export declare function postForm(url: string, form: Record<string, string>, headers?: Record<string, string>): Promise<FormResponse>;
export declare const basic: (id: string, secret: string) => string;
