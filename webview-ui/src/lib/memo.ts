// A component that renders again only when `same` says its props changed. preact/compat's memo does
// this too, but importing compat brings React's whole compatibility layer into the bundle.
import { Component, type ComponentType, h } from 'preact';

export function memo<P extends object>(
  render: ComponentType<P>,
  same: (previous: P, next: P) => boolean,
): ComponentType<P> {
  class Memo extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      return !same(this.props, next);
    }
    override render() {
      return h(render, this.props);
    }
  }
  return Memo;
}
