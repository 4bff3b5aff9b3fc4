import { Navigate, Outlet, type RouteObject } from 'react-router';
import { lazyPage } from './lazyPage.tsx';
import { GuestOnly, RequireAdmin, RequireAuth, RootRedirect } from './guards.tsx';
import { LoginLayout } from './LoginLayout.tsx';
import { DefaultLayout } from './DefaultLayout.tsx';
import { RouteErrorPage } from './RouteErrorPage.tsx';
import { NotFoundPage } from '../features/system/NotFoundPage.tsx';

const LoginPage = lazyPage(() => import('../features/auth/LoginPage.tsx'));
const RegisterPage = lazyPage(() => import('../features/auth/RegisterPage.tsx'));
const ForgotPasswordPage = lazyPage(() => import('../features/auth/ForgotPasswordPage.tsx'));
const ConfirmAccountPage = lazyPage(() => import('../features/auth/ConfirmAccountPage.tsx'));
const LibraryPage = lazyPage(() => import('../features/books/LibraryPage.tsx'));
const UploadPage = lazyPage(() => import('../features/books/UploadPage.tsx'));
const SharePage = lazyPage(() => import('../features/sharing/SharePage.tsx'));
const ShareRecipientPage = lazyPage(() => import('../features/sharing/ShareRecipientPage.tsx'));
const SettingsPage = lazyPage(() => import('../features/account/SettingsPage.tsx'));
const PointsPage = lazyPage(() => import('../features/points/PointsPage.tsx'));
const VocabularyPage = lazyPage(() => import('../features/vocabulary/VocabularyPage.tsx'));
const FeedbackPage = lazyPage(() => import('../features/feedback/FeedbackPage.tsx'));
const StatisticsPage = lazyPage(() => import('../features/admin/StatisticsPage.tsx'));
const ErrorBooksPage = lazyPage(() => import('../features/admin/ErrorBooksPage.tsx'));
const TongjiPage = lazyPage(() => import('../features/admin/TongjiPage.tsx'));
const TestPage = lazyPage(() => import('../features/admin/TestPage.tsx'));
const TranslationReportsPage = lazyPage(() => import('../features/glossary/TranslationReportsPage.tsx'));
const TemplatePage = lazyPage(() => import('../features/system/TemplatePage.tsx'));
const TabsLayout = lazyPage(() => import('../features/reader/TabsLayout.tsx'));
const NewTabPage = lazyPage(() => import('../features/reader/NewTabPage.tsx'));
const ReaderPage = lazyPage(() => import('../features/reader/ReaderPage.tsx'));
const DevicesPage = lazyPage(() => import('../features/devices/DevicesPage.tsx'));
const DownloadsPage = lazyPage(() => import('../features/offline/DownloadsPage.tsx'));

/**
 * The route table of SPEC §2.1. Layouts: LoginLayout for the account pages, DefaultLayout for the rest,
 * none for /user and /tabs. Guards: RequireAuth ("Login: yes"), RequireAdmin for the admin pages.
 */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <RootRedirect /> },
      {
        element: <LoginLayout />,
        children: [
          {
            path: '/login',
            element: (
              <GuestOnly>
                <LoginPage />
              </GuestOnly>
            ),
          },
          {
            path: '/register',
            element: (
              <GuestOnly>
                <RegisterPage />
              </GuestOnly>
            ),
          },
          { path: '/forget-password', element: <ForgotPasswordPage /> },
        ],
      },
      {
        // No layout of its own: only the parent of /user/confirm.
        path: '/user',
        element: <Outlet />,
        children: [
          { index: true, element: <Navigate to="/user-settings" replace /> },
          { element: <LoginLayout />, children: [{ path: 'confirm', element: <ConfirmAccountPage /> }] },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <DefaultLayout />,
            children: [
              { path: '/books', element: <Navigate to="/books/all" replace /> },
              { path: '/books/:kind', element: <LibraryPage /> },
              { path: '/book/upload', element: <UploadPage /> },
              { path: '/book/share', element: <SharePage /> },
              { path: '/book/share/:id', element: <ShareRecipientPage /> },
              { path: '/user-settings', element: <SettingsPage /> },
              { path: '/integral', element: <PointsPage /> },
              { path: '/vocabulary', element: <VocabularyPage /> },
              { path: '/bug', element: <FeedbackPage /> },
              { path: '/devices', element: <DevicesPage /> },
              { path: '/downloads', element: <DownloadsPage /> },
            ],
          },
          {
            path: '/tabs',
            element: <TabsLayout />,
            children: [
              { index: true, element: <Navigate to="/tabs/new" replace /> },
              { path: 'new', element: <NewTabPage /> },
              { path: 'read/:bookcode/:language', element: <ReaderPage /> },
            ],
          },
        ],
      },
      {
        element: <DefaultLayout />,
        children: [
          {
            element: <RequireAdmin />,
            children: [
              { path: '/admin/statistics', element: <StatisticsPage /> },
              { path: '/admin/test', element: <TestPage /> },
              { path: '/admin-error-book', element: <ErrorBooksPage /> },
              { path: '/admin22/tongji', element: <TongjiPage /> },
              { path: '/admin/translation-reports', element: <TranslationReportsPage /> },
            ],
          },
          { path: '/template', element: <TemplatePage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
