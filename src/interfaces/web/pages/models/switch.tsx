/**
 * Switching the store to a model by name: `static`, `static:sif_a=N`, `onnx:FOLDER`,
 * `openai:MODEL[@DIMENSIONS]` or a known model's id, as `POST /v1/models/use` accepts. The server
 * loads the model first, so a wrong folder, URL or key is refused before anything changes.
 */
import { useState } from 'preact/hooks';

import type { Action } from '../../lib/actions';
import { ConfirmButton } from '../../lib/ui';
import { type ModelsStatus, useModel } from './data';

/** The form that moves the store to another model. */
export function SwitchModel(props: {
  status: ModelsStatus;
  action: Action;
  onChanged: () => void;
}) {
  const [choice, setChoice] = useState('');
  const { action } = props;
  const published = props.status.published?.id;
  const known = [
    ...(published ? [published] : []),
    ...props.status.standby.flatMap((m) => (m ? [m.id] : [])),
  ];
  const model = choice.trim();
  const run = () =>
    action.run(async () => {
      const text = await useModel(model);
      props.onChanged();
      setChoice('');
      return text;
    });
  return (
    <section aria-labelledby="switch-title">
      <h2 id="switch-title">Switch to a model</h2>
      <form class="switch-form" onSubmit={(e) => e.preventDefault()}>
        <label for="model-choice">Model</label>
        <div class="switch-row">
          <input
            id="model-choice"
            list="known-models"
            value={choice}
            autoComplete="off"
            spellcheck={false}
            aria-describedby="model-choice-hint"
            onInput={(e) => setChoice(e.currentTarget.value)}
          />
          <datalist id="known-models">
            {known.map((id) => (
              <option key={id} value={id} />
            ))}
          </datalist>
          <ConfirmButton
            label="Switch model"
            title={`Switch to ${model}?`}
            disabled={action.busy || model === ''}
            message={
              <>
                <p>
                  The server loads <code>{model}</code> first: a wrong folder, URL or key is refused
                  and nothing changes.
                </p>
                <p>
                  If the store keeps complete vectors of it, it is published at once. Otherwise
                  every memory is embedded again in the background while recall stays on{' '}
                  <code>{published ?? 'the published model'}</code>; they swap when it is complete.
                  Nothing is deleted: the published model keeps its vectors as a standby. Choosing
                  the published model cancels a running transition.
                </p>
              </>
            }
            onConfirm={run}
          />
        </div>
        <small id="model-choice-hint" class="muted">
          <code>static</code>, <code>static:sif_a=0.01</code>, <code>onnx:FOLDER</code>,{' '}
          <code>openai:MODEL[@DIMENSIONS]</code>, or the id of a model the store knows
        </small>
      </form>
    </section>
  );
}
