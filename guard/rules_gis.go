package guard

import (
	"regexp"
	"strings"
)

// Geographic information systems driven from Python one-liners: ArcPy
// deleting, truncating or rewriting the feature classes of an enterprise
// geodatabase (an .sde connection) or kicking its users off; the ArcGIS
// API for Python deleting an organisation's users, items or features;
// GDAL deleting the layers of a database it opened for update; the
// organisation's token printed. A file geodatabase in the project, a
// test's or a viewer's connection, reads and exports pass.
var gisRules = []*rule{
	{ID: "gis-data-destroyed", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "deleting, truncating or rewriting a shared geodatabase's data, its organisation's users or items, or throwing its users off",
		Suggestions: []string{"Export what you change first (arcpy.conversion.ExportFeatures) and work on a copy in the project", "Try it against a test geodatabase"},
		names:       names("python", "python3", "py", "propy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			code, ok := optValue(c.args(), "-c", "")
			if !ok {
				return false, ""
			}
			switch {
			case strings.Contains(code, "arcpy"):
				gdb := sharedGeodatabase(code)
				if gdb == "" {
					return false, ""
				}
				for _, f := range arcpyDestroys {
					if strings.Contains(code, f) && !(strings.Contains(f, "CalculateField") && strings.Count(code, "!") >= 2) {
						// (a field computed from itself, '!NAME!.strip()',
						// is a cleanup; a constant blanks every row)
						return true, "arcpy " + strings.TrimSuffix(f, "(") + " on " + gdb
					}
				}
				if strings.Contains(code, "AcceptConnections(") && strings.Contains(code, "False") {
					return true, "arcpy.AcceptConnections(..., False): the geodatabase closed to its users"
				}
			case strings.Contains(code, "arcgis"):
				if m := arcgisDestroys.FindString(code); m != "" && !arcgisScratch(code) {
					return true, "ArcGIS API " + m
				}
			case strings.Contains(code, "DeleteLayer(") && gdalDatabaseUpdate.MatchString(code):
				if m := gdalDatabaseUpdate.FindStringSubmatch(code); !isLocalHost(m[1]) && !scratchName(m[1]) {
					return true, "GDAL DeleteLayer on " + m[1]
				}
			}
			return false, ""
		}},
	{ID: "gis-server-opened", Level: LevelHigh, Category: CategoryPermission, Description: "opening a map server's data or services to every role, making an account its administrator, or switching a service off (GeoServer's REST API)",
		Suggestions: []string{"Change GeoServer's security from its admin pages, role by role", "Try it on a local GeoServer first"},
		names:       httpClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			h, ok := readHTTPCall(c)
			if !ok || h.method == "" || h.method == "GET" || !strings.Contains(h.url, "/geoserver/") || h.scratch() {
				return false, ""
			}
			u, body := lower(h.url), strings.ReplaceAll(lower(h.body), " ", "")
			switch {
			case strings.Contains(u, "/rest/security/acl/") && (strings.Contains(body, `":"*"`) || strings.Contains(body, ">*<")):
				return true, "every role allowed (" + h.url + ")"
			case strings.Contains(u, "/rest/security/roles/role/admin") && strings.Contains(u, "/user/"):
				return true, "GeoServer's ADMIN role granted (" + h.url + ")"
			case strings.Contains(u, "/rest/services/") && strings.Contains(body, "<enabled>false</enabled>"), strings.Contains(u, "/gwc/rest/masstruncate"):
				return true, h.method + " " + h.url
			}
			return false, ""
		}},
	{ID: "gis-table-reloaded", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "a shapefile or raster loaded into a shared database in drop-and-recreate mode (shp2pgsql -d, raster2pgsql -d): the table dropped first",
		Suggestions: []string{"Load into a new table (-c) and swap after checking it", "Try it against a local database first"},
		names:       names("psql"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.pipe == nil || c.stage == 0 {
				return false, ""
			}
			prev := c.pipe[c.stage-1]
			if prev == nil || prev.name != "shp2pgsql" && prev.name != "raster2pgsql" || !hasWord(prev.args(), "-d") {
				return false, ""
			}
			if h, ok := optValue(c.args(), "-h", "host"); !ok || isLocalHost(h) || scratchName(h) || a.testScoped(c) {
				return false, ""
			}
			return true, prev.name + " -d into " + joinWords(c.args())
		}},
	{ID: "gis-token-printed", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing an ArcGIS organisation's session token",
		Suggestions: []string{"Let the API sign its own requests; do not print the token"},
		names:       names("python", "python3", "py", "propy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			code, ok := optValue(c.args(), "-c", "")
			if !ok || !strings.Contains(code, "arcgis") || !strings.Contains(code, "print(") {
				return false, ""
			}
			return strings.Contains(code, "_con.token") || strings.Contains(code, "._session.auth"), "the organisation's token"
		}},
}

// arcpyDestroys are ArcPy's tools that delete or rewrite data, in both
// spellings (arcpy.management.X and X_management).
var arcpyDestroys = [...]string{"management.Delete(", "Delete_management(", "management.TruncateTable(", "TruncateTable_management(",
	"management.DeleteRows(", "DeleteRows_management(", "management.DeleteFeatures(", "DeleteFeatures_management(",
	"management.CalculateField(", "CalculateField_management(", "DisconnectUser(", "management.DeleteField(", "DeleteField_management("}

// arcgisDestroys are the ArcGIS API for Python's calls that delete an
// organisation's users, items, layers' features or whole tables.
var arcgisDestroys = regexp.MustCompile(`\.(delete|delete_features|truncate|delete_users)\(`)

// gdalDatabaseUpdate is GDAL opening a database for update:
// ogr.Open('PG:host=H ...', 1).
var gdalDatabaseUpdate = regexp.MustCompile(`(?:ogr|gdal)\.Open(?:Ex)?\(\s*['"](?:PG|MSSQL|OCI|MYSQL):[^'"]*?host=([^ '"]+)[^'"]*['"]\s*,\s*(?:1|True|gdal\.OF_UPDATE)`)

// sharedGeodatabase returns the first enterprise geodatabase connection
// (.sde) ArcPy code names that is not a test's, a development one or a
// viewer's, or "".
func sharedGeodatabase(code string) string {
	l := strings.ToLower(code)
	for i := strings.Index(l, ".sde"); i >= 0; {
		start := strings.LastIndexAny(l[:i], `'"\/`) + 1
		name := l[start : i+4]
		if !scratchName(name) && !strings.Contains(name, "viewer") && !strings.Contains(name, "readonly") && !strings.Contains(name, "_ro") && !strings.Contains(name, "dev") {
			return name
		}
		j := strings.Index(l[i+4:], ".sde")
		if j < 0 {
			break
		}
		i += 4 + j
	}
	return ""
}

// arcgisScratch reports ArcGIS API code that is a dry run, names a test's
// or a scratch item, or signs in with a test, sandbox or development
// profile, or to this machine.
func arcgisScratch(code string) bool {
	l := strings.ToLower(code)
	if strings.Contains(l, "dry_run=true") || scratchName(strings.ReplaceAll(l, "arcgis", "")) {
		return true // a dry run, or a test's or a scratch item deleted
	}
	i := strings.Index(l, "gis(")
	if i < 0 {
		return false
	}
	arg := l[i:]
	if j := strings.IndexByte(arg, ')'); j >= 0 {
		arg = arg[:j]
	}
	return scratchName(arg) || strings.Contains(arg, "dev") || strings.Contains(arg, "localhost")
}

func init() { ruleSets = append(ruleSets, gisRules) }
