import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';
import { scrubAttributes, scrubText, type Attributes } from './scrub.js';

/**
 * First of the span processors: rewrites every span as it ends, before any exporter sees it
 * (scrub.ts says what it removes). `onEnding` runs while the span can still be changed.
 */
export class ScrubbingProcessor implements SpanProcessor {
  onStart(_span: Span, _parent: Context): void {}

  onEnding(span: Span): void {
    span.updateName(scrubText(span.name));
    scrubAttributes(span.attributes as Attributes);
    for (const event of span.events) if (event.attributes) scrubAttributes(event.attributes as Attributes);
    for (const link of span.links) if (link.attributes) scrubAttributes(link.attributes as Attributes);
    if (span.status.message) span.setStatus({ ...span.status, message: scrubText(span.status.message) });
  }

  onEnd(_span: ReadableSpan): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
