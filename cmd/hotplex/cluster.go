package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
)

func newClusterCmd() *cobra.Command {
	c := &apiClient{http: &http.Client{Timeout: 30 * time.Second}}
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Look at a cluster of HotPlex nodes",
		PersistentPreRunE: func(*cobra.Command, []string) error {
			if c.key == "" {
				c.key = os.Getenv("HOTPLEX_API_KEY")
			}
			if c.key == "" {
				return fmt.Errorf("an admin API key is needed: --key or HOTPLEX_API_KEY")
			}
			return nil
		},
	}
	cmd.PersistentFlags().StringVar(&c.url, "url", "http://127.0.0.1:8080", "any node's address")
	cmd.PersistentFlags().StringVar(&c.key, "key", "", "admin API key (default $HOTPLEX_API_KEY)")
	status := &cobra.Command{
		Use: "status", Short: "List the nodes, their load and the sessions they hold", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			body, err := c.do("GET", "/v1/cluster")
			if err != nil {
				return err
			}
			var v struct {
				Clustered bool   `json:"clustered"`
				Node      string `json:"node"`
				Nodes     []struct {
					ID           string    `json:"id"`
					URL          string    `json:"url"`
					Version      string    `json:"version"`
					Started      time.Time `json:"started"`
					Updated      time.Time `json:"updated"`
					Resident     int       `json:"resident"`
					MaxResident  int       `json:"max_resident"`
					RunningTurns int       `json:"running_turns"`
					Leases       int       `json:"leases"`
					Draining     bool      `json:"draining"`
				} `json:"nodes"`
			}
			if err := json.Unmarshal(body, &v); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if !v.Clustered {
				fmt.Fprintln(out, "This daemon is a single node, not part of a cluster.")
				return nil
			}
			fmt.Fprintf(out, "%d nodes (answered by %s)\n", len(v.Nodes), v.Node)
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NODE\tSTATE\tSESSIONS\tTURNS\tLEASES\tUP SINCE\tSEEN\tURL")
			for _, n := range v.Nodes {
				state := "serving"
				if n.Draining {
					state = "draining"
				}
				sessions := fmt.Sprint(n.Resident)
				if n.MaxResident > 0 {
					sessions += fmt.Sprintf("/%d", n.MaxResident)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s ago\t%s\n", n.ID, state, sessions, n.RunningTurns, n.Leases,
					n.Started.Local().Format(time.DateTime), time.Since(n.Updated).Round(time.Second), n.URL)
			}
			return tw.Flush()
		},
	}
	cmd.AddCommand(status)
	return cmd
}
