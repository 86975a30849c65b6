package guard

import "testing"

// Perl's and Ruby's HTTP libraries deleting and changing remote
// resources are the curl calls they amount to; reading, and deleting on
// this machine, pass.
func TestRound51InterpreterHTTPChanges(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`perl -MHTTP::Tiny -e 'HTTP::Tiny->new->request("DELETE", "https://search.acme.io:9200/orders-2024")'`, CategoryCloudDestroy, "http-delete-remote", LevelHigh},
		{`perl -MLWP::UserAgent -e 'LWP::UserAgent->new->delete("https://api.acme.io/v1/customers/42")'`, CategoryCloudDestroy, "http-delete-remote", LevelHigh},
		{`perl -MHTTP::Request -MLWP::UserAgent -e 'LWP::UserAgent->new->request(HTTP::Request->new(DELETE => "https://api.acme.io/v1/plans/7"))'`, CategoryCloudDestroy, "http-delete-remote", LevelHigh},
		{`ruby -rnet/http -e 'u=URI("https://grafana.acme.io/api/dashboards/uid/ab1"); Net::HTTP.start(u.host,u.port,use_ssl:true){|h| h.request(Net::HTTP::Delete.new(u))}'`, CategoryCloudDestroy, "http-delete-remote", LevelHigh},
		{`ruby -e 'require "rest-client"; RestClient.delete("https://api.shop.acme.io/orders/991")'`, CategoryCloudDestroy, "http-delete-remote", LevelHigh},
		{`ruby -rhttparty -e 'HTTParty.delete("https://api.acme.io/v2/users/17")'`, CategoryCloudDestroy, "http-delete-remote", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`perl -MHTTP::Tiny -e 'print HTTP::Tiny->new->get("https://api.acme.io/v1/customers/42")->{content}'`,
		`perl -MHTTP::Tiny -e 'print HTTP::Tiny->new->request("DELETE","http://localhost:9200/test-idx")->{status}'`,
		`ruby -rnet/http -e 'puts Net::HTTP.get(URI("https://api.acme.io/v1/status"))'`,
		`ruby -e 'require "rest-client"; puts RestClient.get("https://api.shop.acme.io/orders/991")'`,
		`ruby -rnet/http -e 'u=URI("http://127.0.0.1:3000/items/4"); Net::HTTP.start(u.host,u.port){|h| h.request(Net::HTTP::Delete.new(u))}'`,
	})
}
