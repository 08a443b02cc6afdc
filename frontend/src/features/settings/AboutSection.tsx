// Settings → "About": which Errand this is, where it keeps its things, and
// the two things a person asking for help needs: the diagnostics to paste,
// and the data folder to look in.
import { useEffect, useId, useRef, useState } from 'react';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import type { AboutInfo } from '../../api/types';
import { copyText } from '../../lib/clipboard';
import './AboutSection.css';

export function AboutSection() {
  const headId = useId();
  const [info, setInfo] = useState<AboutInfo | null>(null);
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const i = await api.aboutInfo();
        if (live) setInfo(i);
      } catch (err) {
        if (live) setError(`What Errand knows of itself could not be read: ${toApiError(err).message}`);
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  const say = (text: string) => {
    setStatus(text);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setStatus(''), 2500);
  };
  const copyDiagnostics = async () => {
    setError('');
    try {
      say((await copyText(await api.diagnostics())) ? 'Diagnostics copied.' : 'Could not copy the diagnostics.');
    } catch (err) {
      setError(`The diagnostics could not be gathered: ${toApiError(err).message}`);
    }
  };
  const openFolder = async () => {
    setError('');
    try {
      await api.openDataFolder();
    } catch (err) {
      setError(toApiError(err).message);
    }
  };

  return (
    <section className="settings-group about-section" aria-labelledby={headId}>
      <h3 id={headId} className="memory-title">
        About
      </h3>
      {info && (
        <dl className="about-facts">
          <dt>Version</dt>
          <dd data-testid="about-version">Errand {info.version}</dd>
          <dt>Data folder</dt>
          <dd className="about-path">{info.dataDir}</dd>
          <dt>Log file</dt>
          <dd className="about-path">{info.logFile}</dd>
          <dt>Database schema</dt>
          <dd>{info.schemaVersion}</dd>
        </dl>
      )}
      <div className="about-actions">
        <button type="button" className="btn btn-ghost btn-small" onClick={() => void copyDiagnostics()}>
          Copy diagnostics
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => void openFolder()}>
          Open data folder
        </button>
        <span className="about-status" aria-live="polite">
          {status}
        </span>
      </div>
      <p className="settings-help">
        The diagnostics tell the version, the system, and the model provider and model in use — never an API key —
        for a bug report.
      </p>
      {error && (
        <p className="settings-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
