import { Component, type ErrorInfo, type ReactNode } from 'react';
import { CopyDetailsButton } from './CopyDetailsButton';

interface Props {
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/** Shows a readable message instead of a blank window if rendering fails. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Errand: render failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="crash" role="alert">
        <h1>Something went wrong</h1>
        <p>Errand hit an unexpected problem while drawing this window. Your conversations are safe.</p>
        <pre className="crash-detail">{this.state.error.message}</pre>
        <div className="crash-actions">
          <button type="button" className="btn btn-primary" onClick={() => this.setState({ error: null })}>
            Try again
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => window.location.reload()}>
            Reload
          </button>
          <CopyDetailsButton report={{ message: this.state.error.message, details: this.state.error.stack }} />
        </div>
      </div>
    );
  }
}
