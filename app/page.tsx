import { Lab } from '../components/lab/Lab';

export default function Page() {
  return <Lab />;
}
