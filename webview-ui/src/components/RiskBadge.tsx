// The security risk the model (or analyzer) gave an action. Color sits on the border and icon only,
// the text stays in the foreground color so it is readable in every theme.
import { Icon } from './Icon';

const RISKS = new Set(['LOW', 'MEDIUM', 'HIGH', 'UNKNOWN']);

export function RiskBadge({ risk }: { risk: string | undefined }) {
  const level = risk && RISKS.has(risk) ? risk : 'UNKNOWN';
  const icon =
    level === 'HIGH' ? 'warning' : level === 'MEDIUM' ? 'info' : level === 'LOW' ? 'shield' : 'question';
  return (
    <span class={`badge risk risk-${level.toLowerCase()}`} title={`Security risk: ${level.toLowerCase()}`}>
      <Icon name={icon} />
      {level}
    </span>
  );
}
