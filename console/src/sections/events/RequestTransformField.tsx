/** A webhook's optional `request_transform`, typed as JSON (the engine checks its templates and names what is wrong). */
import { TextArea } from '../../ui/forms';

const EXAMPLE = '{"version": 2, "template_engine": "Kriti", "body": {"action": "transform", "template": "{\\"id\\": {{$body.id}}}"}}';

export function RequestTransformField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return <TextArea label="Request transform (JSON, optional)" value={value} onChange={(e) => onChange(e.target.value)} placeholder={EXAMPLE} rows={3} />;
}
