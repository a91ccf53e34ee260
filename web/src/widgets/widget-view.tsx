import { answerForKind, kindOfAnswer, type Widget, type WidgetAnswer, type WidgetKind } from '@tutorloop/shared';
import { useRef, useState, type ComponentType } from 'react';
import { widgetRegistry } from './registry';
import type { WidgetAnswerByKind, WidgetDefinition } from './widget-types';

// TypeScript cannot correlate `widget.kind` with the registry entry it picks, so the lookup
// is widened once here; the registry's mapped type guarantees each entry matches its kind.
function definitionFor(kind: WidgetKind): WidgetDefinition<WidgetKind> {
  return widgetRegistry[kind] as unknown as WidgetDefinition<WidgetKind>;
}

/**
 * Whether a widget that just appeared should take the focus: when the learner is not busy
 * elsewhere — focus nowhere, on an empty composer (where it went after the last answer), or
 * still inside the widget it replaces. Text being typed is never interrupted.
 */
function focusIsIdle(): boolean {
  const active = document.activeElement;
  if (!active || active === document.body || active === document.documentElement) return true;
  if (active.closest('.pending-widget')) return true;
  return active instanceof HTMLTextAreaElement && active.classList.contains('composer-input') && active.value.trim() === '';
}

/** After an answer the widget leaves: the composer is the next thing to do, unless another widget follows. */
function focusComposer(from: HTMLElement | null) {
  const scope = from?.closest('.session-body, .session-page') ?? document;
  scope.querySelector<HTMLTextAreaElement>('.composer-input')?.focus({ preventScroll: true });
}

/** The interactive form of the pending widget, inline at the bottom of the transcript. */
export function PendingWidget(props: {
  widget: Widget;
  disabled: boolean;
  onSubmit(response: WidgetAnswerByKind[WidgetKind]): void;
}) {
  const definition = definitionFor(props.widget.kind);
  const Input = definition.Input as ComponentType<typeof props & { autoFocus?: boolean }>;
  const sectionRef = useRef<HTMLElement>(null);
  // Decided once, when the widget appears (issue 18: focus moves to the next thing to do).
  const [autoFocus] = useState(focusIsIdle);

  function handleSubmit(response: WidgetAnswerByKind[WidgetKind]) {
    const section = sectionRef.current;
    const hadFocus = section?.contains(document.activeElement) ?? false;
    props.onSubmit(response);
    if (hadFocus) focusComposer(section);
  }

  return (
    <section
      ref={sectionRef}
      className="widget pending-widget"
      aria-label={definition.label}
      data-testid={`widget-${props.widget.kind}`}
      data-widget-id={props.widget.widgetId}
    >
      {/* A new widget gets a fresh form state. */}
      <Input key={props.widget.widgetId} {...props} onSubmit={handleSubmit} autoFocus={autoFocus} />
    </section>
  );
}

/** The question of an answered (or superseded) widget, read-only, on the tutor's message. */
export function WidgetPromptView({ widget, answer }: { widget: Widget; answer: WidgetAnswer | null }) {
  const definition = definitionFor(widget.kind);
  const Prompt = definition.Prompt as ComponentType<{ widget: Widget; answer: WidgetAnswer | null }>;
  // An answer that is not this kind's (it should not happen) is shown as no answer.
  const own = answer === null ? null : answerForKind(widget.kind, answer);
  return (
    <div className="widget widget-history" data-testid={`widget-history-${widget.kind}`}>
      <Prompt widget={widget} answer={own?.answer ?? null} />
    </div>
  );
}

/** The learner's answer, read-only, on the learner's message. */
export function WidgetAnswerView({ widget, answer }: { widget: Widget | null; answer: WidgetAnswer }) {
  const own = widget ? answerForKind(widget.kind, answer) : null;
  if (!widget || !own) return <FallbackAnswer answer={answer} />;
  const definition = definitionFor(widget.kind);
  const Answer = definition.Answer as ComponentType<{ widget: Widget; answer: WidgetAnswer }>;
  return <Answer widget={widget} answer={own.answer} />;
}

/**
 * When the widget itself is not in the transcript (it should be) or the answer is not its
 * kind's, show the raw answer, read by its shape.
 */
function FallbackAnswer({ answer }: { answer: WidgetAnswer }) {
  const known = kindOfAnswer(answer);
  if (!known) return null;
  switch (known.kind) {
    case 'multiple_choice':
      return <p className="widget-answer">Option {known.answer.selectedIndex + 1}</p>;
    case 'free_text':
      return <p className="widget-answer plain-text">{known.answer.text}</p>;
    case 'rating':
      return <p className="widget-answer">{known.answer.value}</p>;
    case 'code_editor':
      return (
        <pre className="code-block">
          <code>{known.answer.code}</code>
        </pre>
      );
    default: {
      const unreachable: never = known;
      throw new Error(`unknown answer ${JSON.stringify(unreachable)}`);
    }
  }
}
