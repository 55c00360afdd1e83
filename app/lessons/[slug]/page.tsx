import { LessonPlayer } from '../../../components/lessons/LessonPlayer';
import { LESSONS } from '../../../lib/lessons';

export const dynamicParams = false;

export function generateStaticParams(): { slug: string }[] {
  return LESSONS.map((l) => ({ slug: l.slug }));
}

export default async function Page({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return <LessonPlayer slug={slug} />;
}
