import { Lab } from '../components/Lab';

export default function Page() {
  return <Lab />;
}
