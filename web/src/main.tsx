import { render } from 'preact';
import { App } from './app.tsx';
import { installLinkInterceptor } from './router.tsx';
import './styles.css';

installLinkInterceptor();
render(<App />, document.getElementById('app')!);
