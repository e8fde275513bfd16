// Keeps one malformed event from taking the panel down: its row says so and the rest renders.
import { Component, type ComponentChildren } from 'preact';
import { Icon } from './Icon';
import { t } from '../lib/text';

interface Props {
  kind: string;
  children: ComponentChildren;
  /** Shown after the failure line: what the failed view would have held besides the event (its row's tools). */
  fallback?: ComponentChildren;
}

export class RowBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static override getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(`Logbook: could not render a ${this.props.kind} event`, error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <>
        <div class="notice tone-error">
          <Icon name="error" />
          <span>{t('rowUnrenderable', this.props.kind.slice(0, 80))}</span>
        </div>
        {this.props.fallback}
      </>
    );
  }
}
