import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';

/**
 * Which parameter each algorithm names as its random seed (`seed_parameter` of `GET .../algorithms`), or
 * null: the algorithm's own seed setting, which a scenario's card keeps apart from the run seed. Shares
 * the create form's cached list of algorithms, so the list of cards asks once.
 */
export function useSeedParameters(sid: string): (algorithm: string) => string | null {
  const api = useApi();
  const algorithms = useQuery({ queryKey: keys.algorithms(sid), queryFn: () => api.algorithms(sid) });
  return (algorithm) => algorithms.data?.find((a) => a.name === algorithm)?.seed_parameter ?? null;
}
