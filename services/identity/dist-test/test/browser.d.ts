/**
 * A minimal user agent over real HTTP: keeps cookies, follows redirects by hand, and stops at the
 * first redirect that leaves the identity server (the client's redirect_uri), as a browser would
 * hand that URL to the client application.
 */
export declare class Browser {
    private readonly origin;
    private readonly cookies;
    constructor(origin: string);
    fetch(url: string, init?: RequestInit): Promise<Response>;
    /** GET (or the given request), then follow same-origin redirects; returns the final page or the outbound redirect. */
    navigate(url: string, init?: RequestInit): Promise<{
        res: Response;
        url: string;
        html: string;
        leftTo?: string;
    }>;
    submit(html: string, formIndex: number, fields: Record<string, string>): Promise<{
        res: Response;
        url: string;
        html: string;
        leftTo?: string;
    }>;
}
export declare function parseForms(html: string): {
    action: string;
    hidden: Record<string, string>;
}[];
