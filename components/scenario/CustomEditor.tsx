'use client';
// The editor section of a custom scenario: its JSON text, edited in place; each valid version that changes
// the content becomes the scenario's last good request (what the views show).
import type { ChatRequest } from '../../lib/scenarios/types';
import type { CustomScenario } from '../../lib/state/store';
import { useT } from '../common/i18n';
import { RequestEditor } from './RequestEditor';

export interface CustomEditorProps {
  custom: CustomScenario;
  onText: (id: string, text: string) => void;
  onAccept: (id: string, request: ChatRequest) => void;
}

export function CustomEditor({ custom, onText, onAccept }: CustomEditorProps) {
  const t = useT();
  return (
    <section aria-label={t('section.editor')} style={{ display: 'grid', gap: 6 }}>
      <h2 style={{ fontSize: 'var(--fs-lg)', margin: 0 }}>{t('section.editor')}</h2>
      <RequestEditor
        text={custom.text}
        onTextChange={(text) => onText(custom.id, text)}
        onValidRequest={(req) => {
          // Only a change of content replaces the last good state (re-validation of the same text is a no-op).
          if (JSON.stringify(req) !== JSON.stringify(custom.lastGood)) onAccept(custom.id, req);
        }}
        rows={18}
      />
      {!custom.lastGood && <div data-role="no-valid-note" style={{ color: 'var(--c-warn)' }}>{t('scenario.noValidYet')}</div>}
    </section>
  );
}
