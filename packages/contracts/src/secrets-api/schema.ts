// Generated from secrets-api.openapi.json by scripts/secrets-api-contract.mjs: do not edit.
// The secrets API's paths, operations and schemas, as types (openapi-typescript).
export interface paths {
    "/account/api-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mint an API token for the caller's account (a user access token with both scopes only). The token is shown once. */
        post: operations["mintApiToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/api-token/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Token id */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revokes one API token of the caller’s account. */
        delete: operations["revokeApiToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/api-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The API tokens of the caller’s account (never the tokens themselves). */
        get: operations["listApiTokens"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/authcheck": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Checks the credentials: 200 when they are valid. */
        get: operations["authcheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Store a secret. Maximum length by plan (characters): basic 1000, standard 5000, pro 10000. */
        post: operations["shareAtCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Generate a 12-character secret (length 8 to 128), returned once. */
        post: operations["generate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metadata/{metadata_key}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        /** Metadata of a secret; marks it `viewed` after the first call while unread (GET and POST alike, as Onetime Secret does). The metadata key is the credential; others are optional. */
        get: operations["showMetadataAtMetadataGet"];
        put?: never;
        /** Metadata of a secret; marks it `viewed` after the first call while unread (GET and POST alike, as Onetime Secret does). The metadata key is the credential; others are optional. */
        post: operations["showMetadataAtMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metadata/{metadata_key}/burn": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Destroys an unread secret. The metadata key is the credential; others are optional. */
        post: operations["burnSecretAtMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metadata/recent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent metadata of the caller, newest first (100 per page by default, at most 500); keys are null. */
        get: operations["recentMetadataAtMetadata"];
        put?: never;
        /** Recent metadata of the caller, newest first (100 per page by default, at most 500); keys are null. */
        post: operations["recentMetadataAtMetadataPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document. */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/private/{metadata_key}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        /** Metadata of a secret; marks it `viewed` after the first call while unread (GET and POST alike, as Onetime Secret does). The metadata key is the credential; others are optional. */
        get: operations["showMetadataGet"];
        put?: never;
        /** Metadata of a secret; marks it `viewed` after the first call while unread (GET and POST alike, as Onetime Secret does). The metadata key is the credential; others are optional. */
        post: operations["showMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/private/{metadata_key}/burn": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Destroys an unread secret. The metadata key is the credential; others are optional. */
        post: operations["burnSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/private/recent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent metadata of the caller, newest first (100 per page by default, at most 500); keys are null. */
        get: operations["recentMetadata"];
        put?: never;
        /** Recent metadata of the caller, newest first (100 per page by default, at most 500); keys are null. */
        post: operations["recentMetadataPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipt/{metadata_key}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        /** Metadata of a secret; marks it `viewed` after the first call while unread (GET and POST alike, as Onetime Secret does). The metadata key is the credential; others are optional. */
        get: operations["showMetadataAtReceiptGet"];
        put?: never;
        /** Metadata of a secret; marks it `viewed` after the first call while unread (GET and POST alike, as Onetime Secret does). The metadata key is the credential; others are optional. */
        post: operations["showMetadataAtReceipt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipt/{metadata_key}/burn": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Destroys an unread secret. The metadata key is the credential; others are optional. */
        post: operations["burnSecretAtReceipt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipt/recent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent metadata of the caller, newest first (100 per page by default, at most 500); keys are null. */
        get: operations["recentMetadataAtReceipt"];
        put?: never;
        /** Recent metadata of the caller, newest first (100 per page by default, at most 500); keys are null. */
        post: operations["recentMetadataAtReceiptPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/request/{request_key}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key of the request link */
                request_key: string;
            };
            cookie?: never;
        };
        /** What an open request asks for (label, requester, passphrase policy, length; a zero-knowledge request’s public key). Consumes nothing. */
        get: operations["requestInfo"];
        put?: never;
        /** Send the one secret a request asks for (as its page does). The request key is the credential; the link is then spent. */
        post: operations["answerRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s secret requests, newest first; closed ones are kept RECEIPT_RETENTION. */
        get: operations["listRequests"];
        put?: never;
        /** Make a secret request: a link with which anyone can send the caller one secret, once. With recipient, the person asked gets the link by e-mail. */
        post: operations["createRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Request id */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Closes one of the caller’s open requests: its link no longer takes a secret. */
        delete: operations["cancelRequest"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/secret/{secret_key}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The secret key */
                secret_key: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Read a secret, once. No credentials needed. */
        post: operations["reveal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Store a secret. Maximum length by plan (characters): basic 1000, standard 5000, pro 10000. */
        post: operations["share"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service status. Credentials are optional; sent ones must be valid. */
        get: operations["status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/zk/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload the encrypted records of a file, to attach to a zero-knowledge share within the hour. Streamed: at most FILE_MAX_BYTES of content. */
        post: operations["zkUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/zk/files/{download_token}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token in the read’s file.url */
                download_token: string;
            };
            cookie?: never;
        };
        /** The encrypted records of the file of a zero-knowledge secret just read; the path holds the download token its read answered. Deleted once downloaded. */
        get: operations["zkDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/zk/request/{request_key}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key of the request link */
                request_key: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the secret a zero-knowledge request asks for: encrypted by the sender’s client, its key wrapped for the request’s public key. The link is then spent. */
        post: operations["zkAnswerRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/zk/secret/{secret_key}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The secret key (the path of its link) */
                secret_key: string;
            };
            cookie?: never;
        };
        /** What reading a zero-knowledge secret needs (passphrase, recipient, wrapped key, file size). Consumes nothing; no credentials needed. */
        get: operations["zkSecretInfo"];
        put?: never;
        /** Read a zero-knowledge secret, once, with the proof of its key (and of its passphrase). A wrong proof changes nothing. */
        post: operations["zkRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/zk/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Store a secret its client encrypted (docs/zero-knowledge.md): the envelope and the verifiers, optionally an uploaded file, and a share's options. */
        post: operations["zkShare"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        BurnResult: {
            /** @description When the secret was burned */
            burned?: number;
            /** @description Unix time, seconds (UTC) */
            created: number;
            custid: string;
            /** @description Why delivery failed (never the address) */
            delivery_reason?: string;
            /**
             * @description With a recipient: whether the e-mail with the link left
             * @enum {string}
             */
            delivery_status?: "queued" | "sent" | "failed";
            /** @description When delivery_status last changed */
            delivery_updated?: number;
            /** @description A zero-knowledge secret with a file: the bytes stored (encrypted records) */
            file_size?: number;
            metadata_key: string | null;
            metadata_ttl: number;
            /** @description The events its creator is told about by e-mail (the share option notify); absent: none */
            notify?: ("revealed" | "burned" | "expired")[];
            /** @description What became of each notification e-mail that has an outcome, by event */
            notify_status?: {
                [key: string]: "sent" | "failed";
            };
            passphrase_required: boolean;
            /** @description When the secret was read; 0 until then */
            received: number;
            /** @description Who read it, when the reader was known: the account (a requested or recipient-only secret), or "verified address" (a recipient-only secret opened with a one-time code) */
            received_by?: string;
            recipient?: string;
            /**
             * @description Only its recipient can read it (the share option recipient_only)
             * @constant
             */
            recipient_only?: true;
            /** @description Recipient-only: openings refused to someone who was not its recipient; absent: none */
            refused_attempts?: number;
            /** @description The label of the request this secret answered; only the owner’s account can read it */
            request_label?: string;
            secret_key: null;
            /** @description 0 once the secret is gone */
            secret_ttl: number;
            /** @description The share_domain given at creation, "" when none */
            share_domain: string;
            /** @constant */
            state: "burned";
            /** @constant */
            status: "burned";
            ttl: number;
            /** @description Unix time, seconds (UTC) */
            updated: number;
            /**
             * @description Encrypted by its creator's client; its link needs the key this service never had (docs/zero-knowledge.md). Absent: encrypted here
             * @constant
             */
            zero_knowledge?: true;
        };
        Error: {
            code: string;
            message: string;
        };
        GeneratedSecret: {
            /** @description Unix time, seconds (UTC) */
            created: number;
            custid: string;
            metadata_key: string;
            /** @description Seconds the metadata has left (2 x ttl at creation) */
            metadata_ttl: number;
            passphrase_required: boolean;
            /**
             * @description Obfuscated address, present only when one was given
             * @example fo*****@e*****.com
             */
            recipient?: string;
            /**
             * @description Only the recipient can read it (recipient_only)
             * @constant
             */
            recipient_only?: true;
            secret_key: string;
            /** @description Seconds the secret has left */
            secret_ttl: number;
            /** @description The share_domain given at creation, "" when none */
            share_domain: string;
            /** @constant */
            state: "new";
            /** @description The requested TTL */
            ttl: number;
            /** @description Unix time, seconds (UTC) */
            updated: number;
            value: string;
        };
        Metadata: {
            /** @description When the secret was burned */
            burned?: number;
            /** @description Unix time, seconds (UTC) */
            created: number;
            custid: string;
            /** @description Why delivery failed (never the address) */
            delivery_reason?: string;
            /**
             * @description With a recipient: whether the e-mail with the link left
             * @enum {string}
             */
            delivery_status?: "queued" | "sent" | "failed";
            /** @description When delivery_status last changed */
            delivery_updated?: number;
            /** @description A zero-knowledge secret with a file: the bytes stored (encrypted records) */
            file_size?: number;
            metadata_key: string | null;
            metadata_ttl: number;
            /** @description The events its creator is told about by e-mail (the share option notify); absent: none */
            notify?: ("revealed" | "burned" | "expired")[];
            /** @description What became of each notification e-mail that has an outcome, by event */
            notify_status?: {
                [key: string]: "sent" | "failed";
            };
            passphrase_required: boolean;
            /** @description When the secret was read; 0 until then */
            received: number;
            /** @description Who read it, when the reader was known: the account (a requested or recipient-only secret), or "verified address" (a recipient-only secret opened with a one-time code) */
            received_by?: string;
            recipient?: string;
            /**
             * @description Only its recipient can read it (the share option recipient_only)
             * @constant
             */
            recipient_only?: true;
            /** @description Recipient-only: openings refused to someone who was not its recipient; absent: none */
            refused_attempts?: number;
            /** @description The label of the request this secret answered; only the owner’s account can read it */
            request_label?: string;
            /** @description The secret key while unread; null once read, burned or expired */
            secret_key: string | null;
            /** @description 0 once the secret is gone */
            secret_ttl: number;
            /** @description The share_domain given at creation, "" when none */
            share_domain: string;
            /** @enum {string} */
            state: "new" | "viewed" | "received" | "burned" | "expired";
            ttl: number;
            /** @description Unix time, seconds (UTC) */
            updated: number;
            /**
             * @description Encrypted by its creator's client; its link needs the key this service never had (docs/zero-knowledge.md). Absent: encrypted here
             * @constant
             */
            zero_knowledge?: true;
        };
        MintedToken: {
            api_token: string;
            /** @description Unix time, seconds (UTC) */
            created: number;
            custid: string;
            /** Format: uuid */
            id: string;
            label: string | null;
        };
        RecentItem: {
            /** @description When the secret was burned */
            burned?: number;
            /** @description Unix time, seconds (UTC) */
            created: number;
            custid: string;
            /** @description Why delivery failed (never the address) */
            delivery_reason?: string;
            /**
             * @description With a recipient: whether the e-mail with the link left
             * @enum {string}
             */
            delivery_status?: "queued" | "sent" | "failed";
            /** @description When delivery_status last changed */
            delivery_updated?: number;
            /** @description A zero-knowledge secret with a file: the bytes stored (encrypted records) */
            file_size?: number;
            metadata_key: string | null;
            metadata_shortkey: string;
            metadata_ttl: number;
            /** @description The events its creator is told about by e-mail (the share option notify); absent: none */
            notify?: ("revealed" | "burned" | "expired")[];
            /** @description What became of each notification e-mail that has an outcome, by event */
            notify_status?: {
                [key: string]: "sent" | "failed";
            };
            passphrase_required: boolean;
            /** @description When the secret was read; 0 until then */
            received: number;
            /** @description Who read it, when the reader was known: the account (a requested or recipient-only secret), or "verified address" (a recipient-only secret opened with a one-time code) */
            received_by?: string;
            recipient?: string;
            /**
             * @description Only its recipient can read it (the share option recipient_only)
             * @constant
             */
            recipient_only?: true;
            /** @description Recipient-only: openings refused to someone who was not its recipient; absent: none */
            refused_attempts?: number;
            /** @description The label of the request this secret answered; only the owner’s account can read it */
            request_label?: string;
            secret_key: null;
            /** @description 0 once the secret is gone */
            secret_ttl: number;
            /** @description The share_domain given at creation, "" when none */
            share_domain: string;
            /** @enum {string} */
            state: "new" | "viewed" | "received" | "burned" | "expired";
            ttl: number;
            /** @description Unix time, seconds (UTC) */
            updated: number;
            /**
             * @description Encrypted by its creator's client; its link needs the key this service never had (docs/zero-knowledge.md). Absent: encrypted here
             * @constant
             */
            zero_knowledge?: true;
        };
        RevealResult: {
            secret_key: string;
            value: string;
        };
        Secret: {
            /** @description Unix time, seconds (UTC) */
            created: number;
            custid: string;
            metadata_key: string;
            /** @description Seconds the metadata has left (2 x ttl at creation) */
            metadata_ttl: number;
            passphrase_required: boolean;
            /**
             * @description Obfuscated address, present only when one was given
             * @example fo*****@e*****.com
             */
            recipient?: string;
            /**
             * @description Only the recipient can read it (recipient_only)
             * @constant
             */
            recipient_only?: true;
            secret_key: string;
            /** @description Seconds the secret has left */
            secret_ttl: number;
            /** @description The share_domain given at creation, "" when none */
            share_domain: string;
            /** @constant */
            state: "new";
            /** @description The requested TTL */
            ttl: number;
            /** @description Unix time, seconds (UTC) */
            updated: number;
        };
        SecretRequest: {
            /** @description Unix time, seconds (UTC) */
            cancelled?: number;
            /** @description Unix time, seconds (UTC) */
            created: number;
            /** @description When the link closes unanswered */
            expires: number;
            /** @description Unix time, seconds (UTC) */
            fulfilled?: number;
            /** Format: uuid */
            id: string;
            label: string;
            /** @description The link to hand the person asked, while the request is open; null otherwise */
            link: string | null;
            /** @enum {string} */
            passphrase_policy: "none" | "optional" | "required";
            /** @description A zero-knowledge request: its public key (docs/zero-knowledge.md) */
            public_key?: string;
            /**
             * @description Obfuscated address of the person asked, when one was given
             * @example bo*@e*****.com
             */
            recipient?: string;
            /** @description Lifetime of the secret sent through it */
            secret_ttl: number;
            /**
             * @description `fulfilled`: a secret was sent through it (it is in the owner’s recent list)
             * @enum {string}
             */
            state: "open" | "fulfilled" | "cancelled" | "expired";
        };
        Status: {
            locale: string;
            /** @constant */
            status: "nominal";
        };
        TokenInfo: {
            /** @description Unix time, seconds (UTC) */
            created: number;
            /** Format: uuid */
            id: string;
            label: string | null;
            revoked: boolean;
        };
        ZkSecret: {
            /** @description Unix time, seconds (UTC) */
            created: number;
            custid: string;
            /** @description The secret’s page, {BASE_URL}/secret/{secret_key}: the client appends "#" and the key to make the link */
            link: string;
            metadata_key: string;
            /** @description Seconds the metadata has left (2 x ttl at creation) */
            metadata_ttl: number;
            passphrase_required: boolean;
            /**
             * @description Obfuscated address, present only when one was given
             * @example fo*****@e*****.com
             */
            recipient?: string;
            /**
             * @description Only the recipient can read it (recipient_only)
             * @constant
             */
            recipient_only?: true;
            secret_key: string;
            /** @description Seconds the secret has left */
            secret_ttl: number;
            /** @description The share_domain given at creation, "" when none */
            share_domain: string;
            /** @constant */
            state: "new";
            /** @description The requested TTL */
            ttl: number;
            /** @description Unix time, seconds (UTC) */
            updated: number;
            /** @constant */
            zero_knowledge: true;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    mintApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description A name to tell the tokens apart */
                    label?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description A name to tell the tokens apart */
                    label?: string;
                };
                "multipart/form-data": {
                    /** @description A name to tell the tokens apart */
                    label?: string;
                };
            };
        };
        responses: {
            /** @description The new token */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MintedToken"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Token id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        revoked: true;
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such active token of this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens of the account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenInfo"][];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    authcheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The credentials are valid */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    shareAtCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Who handed the credential over (an administrator), named in the e-mail and on the reveal page. */
                    handover_by?: string;
                    /** @description The handed-over credential's client id, shown beside its name. */
                    handover_id?: string;
                    /**
                     * @description A handed-over credential: client_secret, first_password, password. Needs handover_name; service clients only.
                     * @enum {string}
                     */
                    handover_kind?: "client_secret" | "first_password" | "password";
                    /** @description The handed-over credential's client name or account username, named in the e-mail and on the reveal page. */
                    handover_name?: string;
                    /** @description The recipient's language (BCP 47, e.g. de or en-GB) for the e-mails; absent, malformed or not spoken: English. */
                    locale?: string;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    secret?: string;
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Who handed the credential over (an administrator), named in the e-mail and on the reveal page. */
                    handover_by?: string;
                    /** @description The handed-over credential's client id, shown beside its name. */
                    handover_id?: string;
                    /**
                     * @description A handed-over credential: client_secret, first_password, password. Needs handover_name; service clients only.
                     * @enum {string}
                     */
                    handover_kind?: "client_secret" | "first_password" | "password";
                    /** @description The handed-over credential's client name or account username, named in the e-mail and on the reveal page. */
                    handover_name?: string;
                    /** @description The recipient's language (BCP 47, e.g. de or en-GB) for the e-mails; absent, malformed or not spoken: English. */
                    locale?: string;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    secret?: string;
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
                "multipart/form-data": {
                    /** @description Who handed the credential over (an administrator), named in the e-mail and on the reveal page. */
                    handover_by?: string;
                    /** @description The handed-over credential's client id, shown beside its name. */
                    handover_id?: string;
                    /**
                     * @description A handed-over credential: client_secret, first_password, password. Needs handover_name; service clients only.
                     * @enum {string}
                     */
                    handover_kind?: "client_secret" | "first_password" | "password";
                    /** @description The handed-over credential's client name or account username, named in the e-mail and on the reveal page. */
                    handover_name?: string;
                    /** @description The recipient's language (BCP 47, e.g. de or en-GB) for the e-mails; absent, malformed or not spoken: English. */
                    locale?: string;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    secret?: string;
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
            };
        };
        responses: {
            /** @description The secret object */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Secret"];
                };
            };
            /** @description Bad input (missing secret, ttl out of range, bad recipient...) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The secret is longer than the plan allows */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many passphrases waiting for bcrypt; nothing was done (no attempt spent): retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @default 12 */
                    length?: number;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @default 12 */
                    length?: number;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
                "multipart/form-data": {
                    /** @default 12 */
                    length?: number;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
            };
        };
        responses: {
            /** @description The secret object with its value */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeneratedSecret"];
                };
            };
            /** @description Bad input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many passphrases waiting for bcrypt; nothing was done (no attempt spent): retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    showMetadataAtMetadataGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Metadata"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown or expired metadata key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    showMetadataAtMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Metadata"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown or expired metadata key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    burnSecretAtMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The burned metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BurnResult"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown, read, burned or expired */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many passphrases waiting for bcrypt; nothing was done (no attempt spent): retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recentMetadataAtMetadata: {
        parameters: {
            query?: {
                before?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List of metadata */
            200: {
                headers: {
                    /** @description rel="next" URL of the next page */
                    Link?: string;
                    /** @description Present when there is a next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecentItem"][];
                };
            };
            /** @description Bad limit or cursor */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recentMetadataAtMetadataPost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Cursor of the next page (from X-Next-Cursor or the Link header). */
                    before?: string;
                    /** @default 100 */
                    limit?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Cursor of the next page (from X-Next-Cursor or the Link header). */
                    before?: string;
                    /** @default 100 */
                    limit?: number;
                };
                "multipart/form-data": {
                    /** @description Cursor of the next page (from X-Next-Cursor or the Link header). */
                    before?: string;
                    /** @default 100 */
                    limit?: number;
                };
            };
        };
        responses: {
            /** @description List of metadata */
            200: {
                headers: {
                    /** @description rel="next" URL of the next page */
                    Link?: string;
                    /** @description Present when there is a next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecentItem"][];
                };
            };
            /** @description Bad limit or cursor */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document of this deployment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    showMetadataGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Metadata"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown or expired metadata key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    showMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Metadata"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown or expired metadata key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    burnSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The burned metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BurnResult"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown, read, burned or expired */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many passphrases waiting for bcrypt; nothing was done (no attempt spent): retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recentMetadata: {
        parameters: {
            query?: {
                before?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List of metadata */
            200: {
                headers: {
                    /** @description rel="next" URL of the next page */
                    Link?: string;
                    /** @description Present when there is a next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecentItem"][];
                };
            };
            /** @description Bad limit or cursor */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recentMetadataPost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Cursor of the next page (from X-Next-Cursor or the Link header). */
                    before?: string;
                    /** @default 100 */
                    limit?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Cursor of the next page (from X-Next-Cursor or the Link header). */
                    before?: string;
                    /** @default 100 */
                    limit?: number;
                };
                "multipart/form-data": {
                    /** @description Cursor of the next page (from X-Next-Cursor or the Link header). */
                    before?: string;
                    /** @default 100 */
                    limit?: number;
                };
            };
        };
        responses: {
            /** @description List of metadata */
            200: {
                headers: {
                    /** @description rel="next" URL of the next page */
                    Link?: string;
                    /** @description Present when there is a next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecentItem"][];
                };
            };
            /** @description Bad limit or cursor */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    showMetadataAtReceiptGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Metadata"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown or expired metadata key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    showMetadataAtReceipt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Metadata"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown or expired metadata key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    burnSecretAtReceipt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The metadata key returned at creation */
                metadata_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The burned metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BurnResult"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown, read, burned or expired */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many passphrases waiting for bcrypt; nothing was done (no attempt spent): retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recentMetadataAtReceipt: {
        parameters: {
            query?: {
                before?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List of metadata */
            200: {
                headers: {
                    /** @description rel="next" URL of the next page */
                    Link?: string;
                    /** @description Present when there is a next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecentItem"][];
                };
            };
            /** @description Bad limit or cursor */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recentMetadataAtReceiptPost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Cursor of the next page (from X-Next-Cursor or the Link header). */
                    before?: string;
                    /** @default 100 */
                    limit?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Cursor of the next page (from X-Next-Cursor or the Link header). */
                    before?: string;
                    /** @default 100 */
                    limit?: number;
                };
                "multipart/form-data": {
                    /** @description Cursor of the next page (from X-Next-Cursor or the Link header). */
                    before?: string;
                    /** @default 100 */
                    limit?: number;
                };
            };
        };
        responses: {
            /** @description List of metadata */
            200: {
                headers: {
                    /** @description rel="next" URL of the next page */
                    Link?: string;
                    /** @description Present when there is a next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecentItem"][];
                };
            };
            /** @description Bad limit or cursor */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    requestInfo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key of the request link */
                request_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The open request */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Unix time, seconds (UTC) */
                        expires: number;
                        label: string;
                        /** @description Characters the secret may have (the requester’s plan) */
                        max_length: number;
                        /** @enum {string} */
                        passphrase_policy: "none" | "optional" | "required";
                        /** @description A zero-knowledge request: the requester’s ECDH P-256 public key; answer with POST /zk/request/{request_key} */
                        public_key?: string;
                        requester: string;
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown, answered, cancelled or expired request */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    answerRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key of the request link */
                request_key: string;
            };
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    secret?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    secret?: string;
                };
                "multipart/form-data": {
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    secret?: string;
                };
            };
        };
        responses: {
            /** @description Stored for the requester, who alone can read it */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        label: string;
                        requester: string;
                        /** @constant */
                        status: "sent";
                    };
                };
            };
            /** @description Missing secret; a passphrase the request requires or refuses */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown, answered, cancelled or expired request */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Longer than the requester’s plan allows */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many passphrases waiting for bcrypt; nothing was done (no attempt spent): retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRequests: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Requests of the account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecretRequest"][];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createRequest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description What the secret is for, shown to the person asked (never a secret itself) */
                    label?: string;
                    /**
                     * @description Whether the person answering may, must or must not set a passphrase.
                     * @default optional
                     * @enum {string}
                     */
                    passphrase_policy?: "none" | "optional" | "required";
                    /** @description A zero-knowledge request (docs/zero-knowledge.md): the requester's ECDH P-256 public key, an uncompressed point in base64url. The answer is then encrypted by the sender's client and its key wrapped for this key. */
                    public_key?: string;
                    /**
                     * Format: email
                     * @description The address of the person asked: it gets the request link by e-mail (stored sealed).
                     */
                    recipient?: string;
                    /**
                     * @description Lifetime in seconds of the secret sent through it; 0 or absent: the default.
                     * @default 604800
                     */
                    secret_ttl?: number;
                    /**
                     * @description Seconds the request link stays open; 0 or absent: the default.
                     * @default 604800
                     */
                    ttl?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @description What the secret is for, shown to the person asked (never a secret itself) */
                    label?: string;
                    /**
                     * @description Whether the person answering may, must or must not set a passphrase.
                     * @default optional
                     * @enum {string}
                     */
                    passphrase_policy?: "none" | "optional" | "required";
                    /** @description A zero-knowledge request (docs/zero-knowledge.md): the requester's ECDH P-256 public key, an uncompressed point in base64url. The answer is then encrypted by the sender's client and its key wrapped for this key. */
                    public_key?: string;
                    /**
                     * Format: email
                     * @description The address of the person asked: it gets the request link by e-mail (stored sealed).
                     */
                    recipient?: string;
                    /**
                     * @description Lifetime in seconds of the secret sent through it; 0 or absent: the default.
                     * @default 604800
                     */
                    secret_ttl?: number;
                    /**
                     * @description Seconds the request link stays open; 0 or absent: the default.
                     * @default 604800
                     */
                    ttl?: number;
                };
                "multipart/form-data": {
                    /** @description What the secret is for, shown to the person asked (never a secret itself) */
                    label?: string;
                    /**
                     * @description Whether the person answering may, must or must not set a passphrase.
                     * @default optional
                     * @enum {string}
                     */
                    passphrase_policy?: "none" | "optional" | "required";
                    /** @description A zero-knowledge request (docs/zero-knowledge.md): the requester's ECDH P-256 public key, an uncompressed point in base64url. The answer is then encrypted by the sender's client and its key wrapped for this key. */
                    public_key?: string;
                    /**
                     * Format: email
                     * @description The address of the person asked: it gets the request link by e-mail (stored sealed).
                     */
                    recipient?: string;
                    /**
                     * @description Lifetime in seconds of the secret sent through it; 0 or absent: the default.
                     * @default 604800
                     */
                    secret_ttl?: number;
                    /**
                     * @description Seconds the request link stays open; 0 or absent: the default.
                     * @default 604800
                     */
                    ttl?: number;
                };
            };
        };
        responses: {
            /** @description The request, with its link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecretRequest"];
                };
            };
            /** @description Bad input (label, ttl, secret_ttl, passphrase_policy, recipient) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Request id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled request */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecretRequest"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such open request of this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reveal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The secret key */
                secret_key: string;
            };
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                };
                "multipart/form-data": {
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                };
            };
        };
        responses: {
            /** @description The value */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevealResult"];
                };
            };
            /** @description passphrase_required or passphrase_incorrect (the attempt that reaches the limit destroys the secret); wrong credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description secret_for_another_account: a requested secret, and the credentials are not its owner’s; secret_for_recipient: a recipient-only secret, and the credentials are not a user token with its recipient’s verified address (nothing is consumed) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown, read, burned or expired */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many passphrases waiting for bcrypt; nothing was done (no attempt spent): retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    share: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Who handed the credential over (an administrator), named in the e-mail and on the reveal page. */
                    handover_by?: string;
                    /** @description The handed-over credential's client id, shown beside its name. */
                    handover_id?: string;
                    /**
                     * @description A handed-over credential: client_secret, first_password, password. Needs handover_name; service clients only.
                     * @enum {string}
                     */
                    handover_kind?: "client_secret" | "first_password" | "password";
                    /** @description The handed-over credential's client name or account username, named in the e-mail and on the reveal page. */
                    handover_name?: string;
                    /** @description The recipient's language (BCP 47, e.g. de or en-GB) for the e-mails; absent, malformed or not spoken: English. */
                    locale?: string;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    secret?: string;
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Who handed the credential over (an administrator), named in the e-mail and on the reveal page. */
                    handover_by?: string;
                    /** @description The handed-over credential's client id, shown beside its name. */
                    handover_id?: string;
                    /**
                     * @description A handed-over credential: client_secret, first_password, password. Needs handover_name; service clients only.
                     * @enum {string}
                     */
                    handover_kind?: "client_secret" | "first_password" | "password";
                    /** @description The handed-over credential's client name or account username, named in the e-mail and on the reveal page. */
                    handover_name?: string;
                    /** @description The recipient's language (BCP 47, e.g. de or en-GB) for the e-mails; absent, malformed or not spoken: English. */
                    locale?: string;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    secret?: string;
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
                "multipart/form-data": {
                    /** @description Who handed the credential over (an administrator), named in the e-mail and on the reveal page. */
                    handover_by?: string;
                    /** @description The handed-over credential's client id, shown beside its name. */
                    handover_id?: string;
                    /**
                     * @description A handed-over credential: client_secret, first_password, password. Needs handover_name; service clients only.
                     * @enum {string}
                     */
                    handover_kind?: "client_secret" | "first_password" | "password";
                    /** @description The handed-over credential's client name or account username, named in the e-mail and on the reveal page. */
                    handover_name?: string;
                    /** @description The recipient's language (BCP 47, e.g. de or en-GB) for the e-mails; absent, malformed or not spoken: English. */
                    locale?: string;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description Needed to read the secret; kept only as a bcrypt hash. */
                    passphrase?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    secret?: string;
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
            };
        };
        responses: {
            /** @description The secret object */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Secret"];
                };
            };
            /** @description Bad input (missing secret, ttl out of range, bad recipient...) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The secret is longer than the plan allows */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many passphrases waiting for bcrypt; nothing was done (no attempt spent): retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    status: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Service status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    zkUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The file’s encrypted records, one after the other (docs/zero-knowledge.md) */
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description The upload */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A share must attach it before then */
                        expires: number;
                        /**
                         * Format: uuid
                         * @description The upload’s id, for the `file` parameter of POST /zk/share
                         */
                        file: string;
                        /** @description Bytes stored */
                        size: number;
                    };
                };
            };
            /** @description file_required: an empty body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description file_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: the body is not application/octet-stream */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_uploads: too many uploads not yet shared; or rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    zkDownload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token in the read’s file.url */
                download_token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The encrypted records */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_file: unknown, already downloaded or expired */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    zkAnswerRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key of the request link */
                request_key: string;
            };
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The envelope the client made: version 1, its nonce, then the encrypted header (text and/or file description), in base64url */
                    envelope?: string;
                    /** @description SHA-256 of the key proof (32 bytes in base64url) */
                    key_verifier?: string;
                    /** @description SHA-256 of the passphrase proof, when the secret has a passphrase (32 bytes in base64url) */
                    passphrase_verifier?: string;
                    /** @description The secret's key wrapped for the request's public key (113 bytes in base64url) */
                    wrapped_key?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description The envelope the client made: version 1, its nonce, then the encrypted header (text and/or file description), in base64url */
                    envelope?: string;
                    /** @description SHA-256 of the key proof (32 bytes in base64url) */
                    key_verifier?: string;
                    /** @description SHA-256 of the passphrase proof, when the secret has a passphrase (32 bytes in base64url) */
                    passphrase_verifier?: string;
                    /** @description The secret's key wrapped for the request's public key (113 bytes in base64url) */
                    wrapped_key?: string;
                };
                "multipart/form-data": {
                    /** @description The envelope the client made: version 1, its nonce, then the encrypted header (text and/or file description), in base64url */
                    envelope?: string;
                    /** @description SHA-256 of the key proof (32 bytes in base64url) */
                    key_verifier?: string;
                    /** @description SHA-256 of the passphrase proof, when the secret has a passphrase (32 bytes in base64url) */
                    passphrase_verifier?: string;
                    /** @description The secret's key wrapped for the request's public key (113 bytes in base64url) */
                    wrapped_key?: string;
                };
            };
        };
        responses: {
            /** @description Stored for the requester, who alone can read it */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        label: string;
                        requester: string;
                        /** @constant */
                        status: "sent";
                    };
                };
            };
            /** @description Bad input; a passphrase the request requires or refuses; not_zero_knowledge: the request has no public key */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown, answered, cancelled or expired request */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Longer than the requester’s plan allows */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    zkSecretInfo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The secret key (the path of its link) */
                secret_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret’s needs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Unix time, seconds (UTC) */
                        expires: number;
                        /** @description Bytes of its attached file as stored (encrypted records) */
                        file_size?: number;
                        /** @description The read needs the passphrase proof as well */
                        passphrase_required: boolean;
                        /** @description The recipient’s address, obfuscated: only for a recipient-only secret */
                        recipient?: string;
                        /**
                         * @description Only its recipient can read it (a user token of that verified address)
                         * @constant
                         */
                        recipient_only?: true;
                        /**
                         * @description The answer to a request: only the requester’s account can read it
                         * @constant
                         */
                        requested?: true;
                        secret_key: string;
                        /** @description The answer to a zero-knowledge request: its key, wrapped for the requester’s public key (113 bytes) */
                        wrapped_key?: string;
                        /** @constant */
                        zero_knowledge: true;
                    };
                };
            };
            /** @description not_zero_knowledge: a secret encrypted by this service */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown, read, burned or expired */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    zkRead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The secret key (the path of its link) */
                secret_key: string;
            };
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The key proof: HKDF of the link’s key (32 bytes in base64url) */
                    key_proof?: string;
                    /** @description The passphrase proof: HKDF of the key and the stretched passphrase (32 bytes in base64url) */
                    passphrase_proof?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description The key proof: HKDF of the link’s key (32 bytes in base64url) */
                    key_proof?: string;
                    /** @description The passphrase proof: HKDF of the key and the stretched passphrase (32 bytes in base64url) */
                    passphrase_proof?: string;
                };
                "multipart/form-data": {
                    /** @description The key proof: HKDF of the link’s key (32 bytes in base64url) */
                    key_proof?: string;
                    /** @description The passphrase proof: HKDF of the key and the stretched passphrase (32 bytes in base64url) */
                    passphrase_proof?: string;
                };
            };
        };
        responses: {
            /** @description The envelope (the secret is gone), and its file’s download */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The envelope its creator’s client made (base64url): the secret is deleted */
                        envelope: string;
                        /** @description Its file, when it has one */
                        file?: {
                            /** @description Unix time, seconds (UTC) */
                            expires: number;
                            /** @description Bytes of the encrypted records */
                            size: number;
                            /** @description GET it once within `expires` for the encrypted records; the path holds the download token */
                            url: string;
                        };
                        secret_key: string;
                    };
                };
            };
            /** @description not_zero_knowledge: a secret encrypted by this service; bad proofs */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description passphrase_required or passphrase_incorrect (counted: the attempt that reaches the limit destroys the secret) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description wrong_key: the key proof is not the secret’s (nothing changes); secret_for_another_account, secret_for_recipient (nothing is consumed) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown, read, burned or expired */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    zkShare: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The envelope the client made: version 1, its nonce, then the encrypted header (text and/or file description), in base64url */
                    envelope?: string;
                    /**
                     * Format: uuid
                     * @description The id of a complete upload of the caller (POST /zk/files), not yet shared
                     */
                    file?: string;
                    /** @description Who handed the credential over (an administrator), named in the e-mail and on the reveal page. */
                    handover_by?: string;
                    /** @description The handed-over credential's client id, shown beside its name. */
                    handover_id?: string;
                    /**
                     * @description A handed-over credential: client_secret, first_password, password. Needs handover_name; service clients only.
                     * @enum {string}
                     */
                    handover_kind?: "client_secret" | "first_password" | "password";
                    /** @description The handed-over credential's client name or account username, named in the e-mail and on the reveal page. */
                    handover_name?: string;
                    /** @description SHA-256 of the key proof (32 bytes in base64url) */
                    key_verifier?: string;
                    /** @description The link's key sealed for the mailer (identity's credential handover): the recipient's e-mail then holds the full link. Opaque to this service. */
                    link_key_sealed?: string;
                    /** @description The recipient's language (BCP 47, e.g. de or en-GB) for the e-mails; absent, malformed or not spoken: English. */
                    locale?: string;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description SHA-256 of the passphrase proof, when the secret has a passphrase (32 bytes in base64url) */
                    passphrase_verifier?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @description The envelope the client made: version 1, its nonce, then the encrypted header (text and/or file description), in base64url */
                    envelope?: string;
                    /**
                     * Format: uuid
                     * @description The id of a complete upload of the caller (POST /zk/files), not yet shared
                     */
                    file?: string;
                    /** @description Who handed the credential over (an administrator), named in the e-mail and on the reveal page. */
                    handover_by?: string;
                    /** @description The handed-over credential's client id, shown beside its name. */
                    handover_id?: string;
                    /**
                     * @description A handed-over credential: client_secret, first_password, password. Needs handover_name; service clients only.
                     * @enum {string}
                     */
                    handover_kind?: "client_secret" | "first_password" | "password";
                    /** @description The handed-over credential's client name or account username, named in the e-mail and on the reveal page. */
                    handover_name?: string;
                    /** @description SHA-256 of the key proof (32 bytes in base64url) */
                    key_verifier?: string;
                    /** @description The link's key sealed for the mailer (identity's credential handover): the recipient's e-mail then holds the full link. Opaque to this service. */
                    link_key_sealed?: string;
                    /** @description The recipient's language (BCP 47, e.g. de or en-GB) for the e-mails; absent, malformed or not spoken: English. */
                    locale?: string;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description SHA-256 of the passphrase proof, when the secret has a passphrase (32 bytes in base64url) */
                    passphrase_verifier?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
                "multipart/form-data": {
                    /** @description The envelope the client made: version 1, its nonce, then the encrypted header (text and/or file description), in base64url */
                    envelope?: string;
                    /**
                     * Format: uuid
                     * @description The id of a complete upload of the caller (POST /zk/files), not yet shared
                     */
                    file?: string;
                    /** @description Who handed the credential over (an administrator), named in the e-mail and on the reveal page. */
                    handover_by?: string;
                    /** @description The handed-over credential's client id, shown beside its name. */
                    handover_id?: string;
                    /**
                     * @description A handed-over credential: client_secret, first_password, password. Needs handover_name; service clients only.
                     * @enum {string}
                     */
                    handover_kind?: "client_secret" | "first_password" | "password";
                    /** @description The handed-over credential's client name or account username, named in the e-mail and on the reveal page. */
                    handover_name?: string;
                    /** @description SHA-256 of the key proof (32 bytes in base64url) */
                    key_verifier?: string;
                    /** @description The link's key sealed for the mailer (identity's credential handover): the recipient's e-mail then holds the full link. Opaque to this service. */
                    link_key_sealed?: string;
                    /** @description The recipient's language (BCP 47, e.g. de or en-GB) for the e-mails; absent, malformed or not spoken: English. */
                    locale?: string;
                    /** @description Events to be told about by e-mail, comma-separated: revealed, burned, expired. The e-mail never holds the secret or a link. */
                    notify?: string;
                    /**
                     * Format: email
                     * @description Where notify's e-mails go; default: the account's id when it is an e-mail address.
                     */
                    notify_email?: string;
                    /** @description SHA-256 of the passphrase proof, when the secret has a passphrase (32 bytes in base64url) */
                    passphrase_verifier?: string;
                    /**
                     * Format: email
                     * @description One address; gets the link, never the secret.
                     */
                    recipient?: string;
                    /**
                     * @description true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.
                     * @enum {string}
                     */
                    recipient_only?: "0" | "1" | "true" | "false" | "on" | "yes" | "no";
                    /** @description A host name, echoed back as share_domain (links always use this service's own origin). */
                    share_domain?: string;
                    /**
                     * @description Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.
                     * @default 604800
                     */
                    ttl?: number;
                };
            };
        };
        responses: {
            /** @description The secret object, with `link` (append "#" and the key) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ZkSecret"];
                };
            };
            /** @description Bad input (envelope, verifiers, ttl, recipient...); account_required for a file without an account */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The access token lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_file: the upload is not the caller’s, complete and unshared */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The envelope is larger than the plan allows */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited, or too many failed authentications from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
