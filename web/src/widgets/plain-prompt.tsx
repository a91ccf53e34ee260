import { Markdown } from '../components/markdown';

/** The read-only prompt of a widget whose answer is shown separately (free text, code). */
export function PlainPrompt({ widget }: { widget: { props: { prompt: string } } }) {
  return (
    <div className="widget-readonly">
      <div className="widget-prompt">
        <Markdown text={widget.props.prompt} />
      </div>
    </div>
  );
}
