/** The stage picker of the preview and run forms: all stages, or one. */
import { type Stage, STAGE_LABELS, STAGES } from './words';

export { type Stage, STAGE_LABELS };

/** A select of "all stages" ('') or one stage. */
export function StageSelect(props: {
  id: string;
  value: Stage | '';
  onChange: (stage: Stage | '') => void;
}) {
  return (
    <select
      id={props.id}
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value as Stage | '')}
    >
      <option value="">All stages, in run order</option>
      {STAGES.map((s) => (
        <option key={s} value={s}>
          {STAGE_LABELS[s]}
        </option>
      ))}
    </select>
  );
}
