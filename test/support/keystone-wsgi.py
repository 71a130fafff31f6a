"""Serves Debian's Keystone (python3-keystone) for the ledger's tests, as DESIGN.md says: its public WSGI
application from a threading wsgiref server, no Apache. Usage: keystone-wsgi.py CONFIG_FILE PORT"""
import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

config_file, port = sys.argv[1], int(sys.argv[2])
# Keystone reads its configuration from the command line when the application is built.
sys.argv = ['keystone', '--config-file', config_file]

from keystone.server.wsgi import initialize_public_application  # noqa: E402

application = initialize_public_application()


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


make_server('127.0.0.1', port, application, server_class=ThreadingServer, handler_class=QuietHandler).serve_forever()
