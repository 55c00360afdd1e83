import { LessonIndex } from '../../components/lessons/LessonIndex';

export const metadata = { title: 'kvscope · lessons' };

export default function Page() {
  return <LessonIndex />;
}
