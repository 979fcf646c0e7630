/** The Events section (to be built). */
import type { SectionPage } from '../../app/sections';
import { Page } from '../../ui/forms';

const Section: SectionPage = () => <Page title="Events"><p>Not built yet.</p></Page>;
export default Section;
